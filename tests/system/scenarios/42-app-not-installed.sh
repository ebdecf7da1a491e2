# "App not installed" (docs/Lifecycle.md), apart from "device off" (13-not-installed): `wcctl --side watch
# uninstall` and a masked watchd.socket each make the watch app not installed: the phone's transfer,
# context and message fail at once with 7006 and nothing queues, also while watchd is stopped (the
# record is in watchd's state directory, the mask in /etc). Installed again (`wcctl install`, unmask),
# content flows. A disabled socket unit is installed: started, it delivers; stopped, content queues. Then a complication transfer: 7001 while the
# watch app's complication is disabled, counted against the budget once enabled.
# timeout: 120
. "$WP_REPO/tests/system/lib.sh"
reset_pair
restore_units() {
    sx systemctl unmask watchd.socket phoned.socket >/dev/null 2>&1
    sx systemctl enable watchd.socket >/dev/null 2>&1
}
trap restore_units EXIT
peer_installed() { [ "$(phone --json status | json_get peerInstalled)" = "$1" ]; }
unit_file_state() { [ "$(phone --json status | json_get peerUnitFileState)" = "$1" ]; }
expect_refused() {
    expect_status 106 phone transfer '{"refused":true}'
    expect_status 106 phone context set '{"refused":true}'
    expect_status 106 phone send '{"refused":true}' --no-reply
    [ "$(outstanding phone)" = 0 ] || fail "$1: outstanding $(outstanding phone)"
    [ "$(phone --json status | json_get contextSentVersion)" = 0 ] || fail "$1: a context was stored"
}

sx systemctl start phoned.service watchd.socket watchd.service
wait_unit phoned.service active
wait_unit watchd.service active
wait_for 20 phone reachable
journal_mark

# 1. wcctl uninstall: the record outlives watchd.
watch uninstall >/dev/null || fail "uninstall"
wait_until 10 "the phone sees the watch app uninstalled" peer_installed false
expect_refused uninstalled
wait_event 10 WC_EVENT=watchStateChanged WC_ROLE=phone
wait_event 10 WC_EVENT=installationChanged WC_ROLE=watch
wait_events 10 2 WC_EVENT=contentRefused WC_ROLE=phone WC_ERROR_CODE=7006
wait_event 10 WC_EVENT=messageFailed WC_ROLE=phone WC_ERROR_CODE=7006
sx systemctl stop watchd.service
wait_unit watchd.service inactive
peer_installed false || fail "uninstalled, watchd stopped: peerInstalled is not false"
expect_refused "uninstalled and stopped"
expect_unit watchd.service inactive
sx systemctl start watchd.service
wait_unit watchd.service active
watch install >/dev/null || fail "install"
wait_until 10 "the phone sees the watch app installed" peer_installed true
phone transfer '{"n":1}' >/dev/null || fail "transfer after install"
wait_for 30 phone drained

# 2. systemctl mask watchd.socket (it keeps listening: still not installed).
sx systemctl mask watchd.socket >/dev/null 2>&1 || fail "mask"
wait_until 10 "masked: not installed" peer_installed false
[ "$(phone --json status | json_get peerUnitFileState)" = masked ] || fail "peerUnitFileState is not masked"
expect_refused masked
sx systemctl unmask watchd.socket >/dev/null 2>&1 || fail "unmask"
wait_until 10 "unmasked: installed" peer_installed true
# The same from the watch: a masked phoned.socket is a phone app that is not installed (7018).
companion_installed() { [ "$(watch --json status | json_get peerInstalled)" = "$1" ]; }
sx systemctl mask phoned.socket >/dev/null 2>&1 || fail "mask phoned.socket"
wait_until 10 "the watch sees the phone app not installed" companion_installed false
expect_status 118 watch transfer '{"refused":true}'
expect_status 118 watch context set '{"refused":true}'
[ "$(outstanding watch)" = 0 ] || fail "masked phone: the watch queued $(outstanding watch)"
sx systemctl unmask phoned.socket >/dev/null 2>&1 || fail "unmask phoned.socket"
wait_until 10 "the watch sees the phone app installed" companion_installed true

# 3. Enablement is not installation: a disabled socket unit is installed. Started without being enabled
# (as by hand and in test harnesses), its socket launches the app: content is delivered. Disabled and
# stopped is "device off": content queues (no 7006) until the socket is started again.
sx systemctl disable watchd.socket >/dev/null 2>&1 || fail "disable"
[ "$(sx systemctl is-enabled watchd.socket)" = disabled ] || fail "watchd.socket is not disabled"
wait_until 10 "the phone sees watchd.socket disabled" unit_file_state disabled
peer_installed true || fail "disabled and started: peerInstalled is not true"
phone transfer '{"n":2}' >/dev/null || fail "transfer to a started, not enabled watch app"
wait_for 30 phone drained
sx systemctl stop watchd.service watchd.socket
wait_unit watchd.socket inactive
peer_installed true || fail "disabled and stopped (device off): peerInstalled is not true"
phone transfer '{"n":3}' >/dev/null || fail "transfer to a watch that is off"
[ "$(outstanding phone)" = 1 ] || fail "device off: outstanding $(outstanding phone), expected 1"
sx systemctl start watchd.socket
wait_for 30 phone drained
sx systemctl enable watchd.socket >/dev/null 2>&1 || fail "enable"
# Delivered by a background launch, which exits when idle; then the user starts the app.
wait_unit watchd.service inactive 20
sx systemctl start watchd.service
wait_unit watchd.service active
got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "1 2 3 " ] || fail "watch received: $got"

# 4. Complications (docs/Complications.md): refused while the watch app's complication is disabled; enabled in
# watchd's record, the phone sends one out of its daily budget.
remaining() { [ "$(phone --json status | json_get complicationTransfersRemaining)" = "$1" ]; }
expect_status 101 phone complication '{"c":0}'
watch complication enable >/dev/null || fail "complication enable"
wait_until 10 "the phone sees the complication enabled" remaining 50
sent=$(phone complication '{"c":1}') || fail "complication transfer"
[ "$(echo "$sent" | tail -1)" = "remaining 49" ] || fail "wcctl complication printed: $sent"
wait_for 30 phone drained
wait_event 10 WC_EVENT=complicationQueued WC_ROLE=phone
echo "uninstalled, masked and disabled: 7006 and nothing queued; installed again: delivered; a complication transfer"
