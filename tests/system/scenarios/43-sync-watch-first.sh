# Keyed sync, watch first (docs/KeyedSync.md): the watch app runs alone and registers its key with a default;
# the phone app starts later and sets its values. The watch's handshake (it asks for the phone's
# snapshot once the phone is reachable) is answered, and the watch ends with the phone's values.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
. "$WP_REPO/tests/system/sync.sh"
reset_pair
journal_mark
sx systemctl start watchd.socket watchd.service
wait_for 10 watch ready
# The watch changes its copy twice (2@watch): a phone-owned key's local changes stay local, and must
# not hold back the phone's first value (1@phone).
watch sync set theme '"system"' --availability phoneWithWatchSync >/dev/null || fail "watch sync set"
watch sync set theme '"auto"' >/dev/null || fail "watch sync set again"
[ "$(sync_field watch theme revision)" = 2@watch ] || fail "watch default: $(watch sync get theme)"
expect_unit phoned.service inactive

sx systemctl start phoned.service
wait_for 10 phone ready
phone sync set theme '"dark"' --availability phoneWithWatchSync >/dev/null || fail "phone sync set theme"
phone sync set units '"metric"' >/dev/null || fail "phone sync set units"
# The watch asked for the phone's snapshot once the phone was reachable, and the phone answered it.
wait_event 20 WC_EVENT=syncRequested WC_ROLE=phone
expect_watch_has_phone_keys theme units
[ "$(sync_field watch theme registered)" = true ] || fail "the watch's own key is no longer registered"
# A key the watch never registered is kept and shown, never a crash.
[ "$(sync_field watch units registered)" = false ] || fail "units: $(watch sync get units)"
has_event WC_EVENT=syncUnknownKey WC_ROLE=watch WC_SYNC_KEY=units || fail "no syncUnknownKey for units"
echo "watch first: the watch holds the phone's theme and units"
