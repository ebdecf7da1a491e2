# Keyed sync, phone first (docs/KeyedSync.md): the phone app sets its keys while the watch is off
# (`systemctl stop watchd.socket`: device off, the app still installed); they stay needSync. Starting
# the watch later delivers them, and the phone sees its keys confirmed.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
. "$WP_REPO/tests/system/sync.sh"
phone_alone
phone sync set theme '"dark"' >/dev/null || fail "sync set theme"
phone sync set profile '{"name":"Ada","age":36}' >/dev/null || fail "sync set profile"
[ "$(sync_field phone theme needSync)" = true ] || fail "theme: $(phone sync get theme)"

start_watch
expect_watch_has_phone_keys theme profile
wait_until 30 "the phone sees theme confirmed" confirmed theme
wait_until 30 "the phone sees profile confirmed" confirmed profile
echo "phone first: the watch holds theme and profile, and the phone saw them confirmed"
