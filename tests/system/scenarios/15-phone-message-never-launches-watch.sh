# A message from the phone never launches the watch app: with watchd stopped (socket up) it fails at
# once with 7007 and watchd stays down. A userInfo afterwards does launch it, which proves the
# socket was able to: the journal shows no watch launch before that userInfo was queued.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
reset_pair
sx systemctl start phoned.service watchd.socket
wait_unit phoned.service active
expect_unit watchd.service inactive
journal_mark

expect_status 107 phone send '{"ping":1}'
expect_status 107 phone send '{"ping":2}' --no-reply
expect_unit watchd.service inactive
wait_events 5 2 WC_EVENT=messageFailed WC_ROLE=phone WC_ERROR_CODE=7007

phone transfer '{"n":1}' >/dev/null || fail "transfer"
wait_event 15 WC_EVENT=backgroundLaunch WC_ROLE=watch
queued=$(events WC_EVENT=userInfoQueued WC_ROLE=phone | field __MONOTONIC_TIMESTAMP | head -n1)
launches=$(events WC_EVENT=backgroundLaunch WC_EVENT=foregroundLaunch WC_ROLE=watch | field __MONOTONIC_TIMESTAMP)
for launch in $launches; do
    [ "$launch" -gt "$queued" ] || fail "watchd launched before the userInfo was queued (by a message)"
done
echo "phone messages do not launch watchd"
