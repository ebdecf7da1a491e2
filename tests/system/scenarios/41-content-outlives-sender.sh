# Content outlives its sender (DESIGN §3): the phone transfers while the watch is off, then its app
# stops; the watch starts later and receives it, because the phone announced its content
# (/run/watchpair/phoned.sock.pending) and the starting watch launched phoned in the background to
# deliver. Then the announcement is withdrawn and phoned exits by itself.
# timeout: 90
. "$WP_REPO/tests/system/lib.sh"
reset_pair
sx systemctl start phoned.service
wait_unit phoned.service active
expect_unit watchd.socket inactive
journal_mark

phone transfer '{"n":1}' >/dev/null || fail "transfer"
phone context set '{"mode":"night"}' >/dev/null || fail "context"
wait_until 10 "phoned announces its content" sx test -e /run/watchpair/phoned.sock.pending
sx systemctl stop phoned.service
wait_unit phoned.service inactive
expect_unit phoned.socket active
sx test -e /run/watchpair/phoned.sock.pending || fail "the announcement did not outlive phoned"

sx systemctl start watchd.socket watchd.service
wait_unit watchd.service active
wait_event 30 WC_EVENT=backgroundLaunch WC_ROLE=phone
wait_event 30 WC_EVENT=userInfoDelivered WC_ROLE=watch
wait_event 30 WC_EVENT=contextReceived WC_ROLE=watch
phone_announces() { sx test -e /run/watchpair/phoned.sock.pending; }
phone_withdrew() { ! phone_announces; }
wait_until 15 "phoned withdraws its announcement" phone_withdrew
got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "1 " ] || fail "watch received: $got"
ctx=$(watch context get --received) || fail "context get"
echo "$ctx" | grep -q night || fail "watch context: $ctx"
wait_event 30 WC_EVENT=idleExit WC_ROLE=phone
wait_unit phoned.service inactive 10
echo "a stopped phone's transfer and context reached a watch that started later"
