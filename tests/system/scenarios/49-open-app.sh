# Opening an app (docs/Systemd.md): `wcctl open` and `systemctl reload` bring a background launch to the
# foreground (reachable for the phone's messages, no idle exit), and `wcctl open` starts a stopped app in
# the foreground. `systemctl start` of the active unit would do nothing.
# timeout: 120
. "$WP_REPO/tests/system/lib.sh"
reset_pair
sx systemctl start phoned.service watchd.socket
wait_unit phoned.service active
expect_unit watchd.service inactive
journal_mark

# 1. A background launch, opened with wcctl.
phone transfer '{"n":1}' >/dev/null || fail "transfer"
wait_event 15 WC_EVENT=backgroundLaunch WC_ROLE=watch
[ "$(watch --json status | json_get launch)" = background ] || fail "not a background launch"
expect_status 107 phone send '{"early":true}' --timeout 2
opened=$(watch open) || fail "wcctl open"
[ "$(echo "$opened" | json_get opened)" = true ] || fail "wcctl open printed: $opened"
[ "$(echo "$opened" | json_get launch)" = foreground ] || fail "wcctl open printed: $opened"
wait_event 10 WC_EVENT=appOpened WC_ROLE=watch
wait_for 10 phone reachable
[ "$(watch open | json_get opened)" = false ] || fail "a second open changed something"
# Past the idle timeout (2 s here) with nothing to do: a background launch would have exited.
sleep 3
expect_unit watchd.service active
expect_no_event WC_EVENT=idleExit WC_ROLE=watch
# The timeline marks the change on the watch's lifeline.
sx wcctl timeline --svg /tmp/open.svg >/dev/null || fail "timeline"
sx grep -q "opened: foreground" /tmp/open.svg || fail "the timeline does not show the opening"

# 2. A background launch, opened with systemctl reload (ExecReload= sends SIGHUP).
sx systemctl stop watchd.service
wait_unit watchd.service inactive
journal_mark
phone transfer '{"n":2}' >/dev/null || fail "transfer"
wait_event 15 WC_EVENT=backgroundLaunch WC_ROLE=watch
sx systemctl reload watchd.service || fail "systemctl reload"
wait_event 10 WC_EVENT=appOpened WC_ROLE=watch
wait_for 10 phone reachable
[ "$(watch --json status | json_get launch)" = foreground ] || fail "reload did not open the app"

# 3. A stopped app: wcctl open starts it in the foreground.
sx systemctl stop watchd.service
wait_unit watchd.service inactive
journal_mark
started=$(watch open) || fail "wcctl open of a stopped app"
[ "$(echo "$started" | json_get started)" = true ] || fail "wcctl open printed: $started"
wait_unit watchd.service active
wait_event 10 WC_EVENT=foregroundLaunch WC_ROLE=watch
wait_for 10 phone reachable
got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "1 2 " ] || fail "watch received: $got"
echo "opened by wcctl and by reload: foreground, reachable, no idle exit; a stopped app started by wcctl open"
