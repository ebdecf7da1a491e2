# A message from the watch launches a stopped phone app in the background (Apple's wake rule):
# the sender never gets 7007. With a message handler attached on the phone, it gets the reply.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
reset_pair
sx systemctl start phoned.socket watchd.service
wait_unit watchd.service active
expect_unit phoned.service inactive
journal_mark

status=0
watch send '{"ping":1}' --timeout 5 >/dev/null 2>&1 || status=$?
# 0: answered; 114 (7014): the phone app runs but no handler was attached yet. Never 107.
[ $status = 0 ] || [ $status = 114 ] || fail "watch send exited $status"
wait_event 10 WC_EVENT=backgroundLaunch WC_ROLE=phone

# The phone app, now running, attaches a handler; the next message is answered.
sx systemctl start phoned.service   # already active: stays up (and keeps its launch mode)
sx systemd-run --quiet --unit=wp-test-receiver --collect -p Type=exec wcctl --side phone receive --follow --channel message --reply '{"pong":true}'
wait_unit wp-test-receiver.service active
wait_for 10 phone handler
reply=$(watch send '{"ping":2}' --timeout 5) || fail "watch send exited $?"
[ "$(echo "$reply" | json_get pong)" = true ] || fail "reply: $reply"
sx systemctl stop wp-test-receiver.service
echo "watch message launched the phone app"
