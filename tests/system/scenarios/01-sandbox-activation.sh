# The sandbox does socket activation, Type=notify, journald fields and the watchdog, shown with a
# tiny socket-activated Python service (fixtures/wp-probe.*) shaped like phoned.
# timeout: 40
. "$WP_REPO/tests/system/lib.sh"

fixtures=$WP_SHARED/src/tests/system/fixtures
sx cp "$fixtures/wp-probe.socket" "$fixtures/wp-probe.service" /run/systemd/system/
sx install -m 0755 "$fixtures/wp-probe.py" /usr/local/lib/wp-probe.py
trap 'sx systemctl stop wp-probe.socket wp-probe.service; sx rm -f /run/systemd/system/wp-probe.* /usr/local/lib/wp-probe.py; sx systemctl daemon-reload' EXIT
sx systemctl daemon-reload
journal_mark
sx systemctl start wp-probe.socket
expect_unit wp-probe.socket active
expect_unit wp-probe.service inactive
sx test -S /run/wp-probe/probe.sock || fail "no socket file"

# A connection launches the service in the background; it finds its fd by name and answers.
reply=$(sx timeout 10 socat -t 5 -u UNIX-CONNECT:/run/wp-probe/probe.sock -)
[[ $reply == "hello 1 uid="* ]] || fail "reply: $reply"
wait_event 10 WC_EVENT=probeStarted WC_LAUNCH=background
# Type=notify: READY=1 made it active, STATUS= is shown.
wait_unit wp-probe.service active 5
[[ "$(unit_prop wp-probe.service StatusText)" == served* ]] || fail "StatusText: $(unit_prop wp-probe.service StatusText)"
# Events carry MESSAGE_ID and WC_* fields.
events WC_EVENT=probeServed | field MESSAGE_ID | grep -x 0bd7c1f6a64a4c5e9d3c0e0b7a7f5e01 >/dev/null || fail "no MESSAGE_ID"
[ "$(events WC_EVENT=probeServed | field WC_SEQ)" = 1 ] || fail "WC_SEQ"
# Idle exit: status 0, inactive, socket still listening.
wait_event 10 WC_EVENT=probeIdleExit
wait_unit wp-probe.service inactive 5
[ "$(unit_prop wp-probe.service Result)" = success ] || fail "Result $(unit_prop wp-probe.service Result)"
expect_unit wp-probe.socket active

# Foreground start, then a hang (SIGSTOP): the watchdog kills it and Restart= brings it back.
sx systemctl start wp-probe.service
wait_event 10 WC_EVENT=probeStarted WC_LAUNCH=foreground
pid=$(main_pid wp-probe.service)
sx kill -STOP "$pid"
wait_prop_ge wp-probe.service NRestarts 1 15
events UNIT=wp-probe.service | field MESSAGE | grep "Watchdog timeout" >/dev/null || {
    events UNIT=wp-probe.service | field MESSAGE
    fail "systemd logged no watchdog timeout"
}
wait_events 10 2 WC_EVENT=probeStarted WC_LAUNCH=foreground
[ "$(main_pid wp-probe.service)" != "$pid" ] || fail "same main pid after the watchdog"

# Stopping the socket removes its file (RemoveOnStop=yes): "not installed".
sx systemctl stop wp-probe.socket
expect_unit wp-probe.service inactive
sx test -e /run/wp-probe/probe.sock && fail "socket file left behind"
echo "sandbox activation, notify, journal and watchdog work"
