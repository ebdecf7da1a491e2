# Under systemd: each app's event history lives in its StateDirectory and survives a kill -9 and the
# restart systemd makes; `wcctl events --both` merges both apps by time; `wcctl timeline` draws the
# session (the kill, the background launch by socket activation, the idle exit) as one HTML file.
# timeout: 90
. "$WP_REPO/tests/system/lib.sh"
reset_pair
sx systemctl start phoned.service watchd.service
wait_unit phoned.service active
wait_unit watchd.service active
journal_mark
id=$(phone transfer '{"n":1}') || fail "transfer"
wait_event 15 WC_EVENT=userInfoFinished WC_ROLE=phone
# Whole outputs are captured first: grep -q closing a pipe early would fail wcctl (pipefail).
events=$(watch --json events) || fail "events"
grep -q "\"transferId\":\"$id\"" <<<"$events" || fail "watch events lack the delivery of $id"

# kill -9: systemd restarts the app, which still has what happened before.
sx systemctl kill -s KILL watchd.service
wait_prop_ge watchd.service NRestarts 1 15
wait_unit watchd.service active
sx test -s /var/lib/watchpair/watchd/events.jsonl || fail "no history file in the state directory"
# The restart is a foreground or (when the phone's reconnect is waiting on the socket) a background launch.
launches=$(watch --json events --event foregroundLaunch --event backgroundLaunch) || fail "events --event"
launches=$(wc -l <<<"$launches")
[ "$launches" = 2 ] || fail "$launches launches in the watch's history, expected 2"
events=$(watch --json events) || fail "events after the restart"
grep -q "\"transferId\":\"$id\"" <<<"$events" || fail "the history lost the delivery of $id"

# The app stopped ("installed, not running"): a transfer launches it in the background; it idles out.
sx systemctl stop watchd.service
phone transfer '{"n":2}' >/dev/null || fail "transfer 2"
wait_event 15 WC_EVENT=backgroundLaunch WC_ROLE=watch
wait_event 20 WC_EVENT=idleExit WC_ROLE=watch
wait_unit watchd.service inactive 10
sx systemctl start watchd.service
wait_unit watchd.service active

# Both apps, by time: timestamps are fixed width, so text order must equal time order.
both=$(phone --json events --both) || fail "events --both"
times=$($PY -c 'import json, sys; [print(json.loads(line)["timestamp"]) for line in sys.stdin]' <<<"$both")
[ "$times" = "$(sort <<<"$times")" ] || fail "events --both out of time order"
grep -q '"role":"watch"' <<<"$both" || fail "events --both lacks the watch"

out=$(sx mktemp /tmp/wp-timeline.XXXXXX.html)
phone timeline --html "$out" >/dev/null || fail "timeline"
page=$(sx cat "$out")
for kind in userInfo didFinish foregroundLaunch backgroundLaunch idleExit ended; do
    grep -q "data-kind=\"$kind\"" <<<"$page" || fail "the timeline draws no $kind"
done
grep -qE '<(script|link|img)' <<<"$page" && fail "the page loads something"
echo "history across a kill, merged events, timeline of $(wc -l <<<"$both") events"
