# A typed request from the watch to a phone app that is off (socket and service stopped), with
# `--mode queued`, waits in the watch app's persisted request queue, survives `systemctl kill -s KILL`
# of the watch app, and is answered once the phone app runs: its handler runs exactly once.
# timeout: 90
. "$WP_REPO/tests/system/lib.sh"
reset_pair
sx systemctl start watchd.service
wait_unit watchd.service active
journal_mark

# messageOnly: a request that cannot go live waits in the queue (a fallback would take userInfo).
sx systemd-run --quiet --unit=wp-test-request --collect -p Type=exec \
    wcctl --side watch request Ping '{"n":1}' --strategy messageOnly --mode queued
wait_event 15 WC_EVENT=requestQueued WC_ROLE=watch WC_REQUEST_TYPE=Ping
id=$(watch queue | json_get requestId)
[ -n "$id" ] || fail "nothing in the watch app's queue"

pid=$(main_pid watchd.service)
sx systemctl kill -s KILL watchd.service
wait_prop_ge watchd.service NRestarts 1 15
wait_unit watchd.service active
[ "$(main_pid watchd.service)" != "$pid" ] || fail "watchd was not restarted"
[ "$(watch queue | json_get requestId)" = "$id" ] || fail "the queue after the kill: $(watch queue)"

# The phone app runs and serves Ping; the watch app, in active mode, flushes its queue to it.
sx systemctl start phoned.socket phoned.service
wait_unit phoned.service active
out=$(sx mktemp /tmp/wp-serve.XXXXXX)
sx systemd-run --quiet --unit=wp-test-serve --collect -p Type=exec -p StandardOutput="file:$out" \
    wcctl --side phone serve Ping --reply '{"pong":1}'
# Blocks (no polling) until the serve client's handler for Ping is registered in the phone app.
sx wcctl --side phone wait handler Ping --timeout 15 || fail "the phone app has no Ping handler: $(sx journalctl -u wp-test-serve.service --no-pager | tail -5)"
watch connect >/dev/null || fail "watch connect exited $?"
# The flush sent it as a live message, answered at its first attempt (WC_ATTEMPT, docs/WatchConnection.md).
wait_event 20 WC_EVENT=requestSent WC_ROLE=watch WC_REQUEST_TYPE=Ping WC_REQUEST_ID="$id" WC_ATTEMPT=1
[ -z "$(watch queue)" ] || fail "still queued: $(watch queue)"
ran=$(sx grep -c '"type":"Ping"' "$out")
[ "$ran" = 1 ] || fail "the phone's handler ran $ran times: $(sx cat "$out")"
sx systemctl stop wp-test-serve.service
sx rm -f "$out"
echo "queued request survived kill -9 of the watch app and ran once at the phone"
