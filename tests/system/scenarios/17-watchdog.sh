# A hung daemon (SIGSTOP) stops its WATCHDOG=1 pings: systemd kills it after WatchdogSec (3 s in the
# tests) and restarts it; it serves again.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
reset_pair
sx systemctl start phoned.service watchd.service
wait_unit watchd.service active
[ "$(unit_prop watchd.service WatchdogUSec)" = 3000000 ] || [ "$(unit_prop watchd.service WatchdogUSec)" = 3s ] ||
    fail "WatchdogUSec=$(unit_prop watchd.service WatchdogUSec)"
journal_mark
pid=$(main_pid watchd.service)
sx kill -STOP "$pid"
wait_prop_ge watchd.service NRestarts 1 20
events UNIT=watchd.service | field MESSAGE | grep 'Watchdog timeout' >/dev/null || fail "systemd logged no watchdog timeout"
wait_unit watchd.service active
[ "$(main_pid watchd.service)" != "$pid" ] || fail "same pid"
# The restarted daemon logs its launch (background when the phone reconnected first).
note "restarted watchd launched in the $(launch_mode "$(main_pid watchd.service)")"

phone transfer '{"n":1}' >/dev/null || fail "transfer"
wait_event 15 WC_EVENT=userInfoDelivered WC_ROLE=watch
echo "hung watchd killed by the watchdog and restarted"
