# Keyed sync across lifetimes that never overlap (docs/KeyedSync.md; content outlives its sender): the
# phone app sets its keys and stops before the watch app ever runs; the watch starts later, launches
# the phone in the background to deliver what it announced, and ends with the phone's values.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
. "$WP_REPO/tests/system/sync.sh"
phone_alone
phone sync set theme '"dark"' >/dev/null || fail "sync set theme"
phone sync set units '"metric"' >/dev/null || fail "sync set units"
wait_until 10 "phoned announces its content" sx test -e /run/watchpair/phoned.sock.pending
sx systemctl stop phoned.service
wait_unit phoned.service inactive

start_watch
wait_event 30 WC_EVENT=backgroundLaunch WC_ROLE=phone
wait_holds 30 watch theme dark 1@phone
wait_holds 30 watch units metric 1@phone
# The phone app's ledger kept its values across its stops: start it and compare.
sx systemctl start phoned.service
wait_for 10 phone ready
expect_watch_has_phone_keys theme units
echo "lifetimes that never overlap: the watch holds what the stopped phone had set"
