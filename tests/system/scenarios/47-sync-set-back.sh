# Keyed sync, a key set back to an earlier value (docs/KeyedSync.md): dark, light, dark again. The last
# snapshot is the same value as the first, but every change raises the revision, so the context
# differs and the identical-context rule does not swallow it: the watch ends at dark, revision 3.
# The middle step happens while the watch app is stopped (installed: the context launches it).
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
. "$WP_REPO/tests/system/sync.sh"
reset_pair
journal_mark
sx systemctl start phoned.service watchd.socket watchd.service
wait_for 10 phone ready
wait_for 10 watch ready
phone sync set theme '"dark"' >/dev/null || fail "sync set dark"
wait_holds 20 watch theme dark 1@phone
sx systemctl stop watchd.service
wait_unit watchd.service inactive
phone sync set theme '"light"' >/dev/null || fail "sync set light"
wait_event 20 WC_EVENT=syncUnknownKey WC_ROLE=watch WC_SYNC_REVISION=2@phone
ensure_foreground watchd
wait_holds 20 watch theme light 2@phone
phone sync set theme '"dark"' >/dev/null || fail "sync set dark again"
wait_holds 20 watch theme dark 3@phone
wait_until 20 "the phone sees 3@phone confirmed" confirmed theme
expect_watch_has_phone_keys theme
echo "a value set back to an earlier one still synced (3@phone)"
