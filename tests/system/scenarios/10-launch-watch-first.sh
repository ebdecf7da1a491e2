# The watch app runs first while the phone app is not installed: its userInfo and context queue.
# Installing and starting the phone later delivers them, in order, and the watch hears didFinish.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
reset_pair
journal_mark
sx systemctl start watchd.service
wait_unit watchd.service active
wait_event 10 WC_EVENT=foregroundLaunch WC_ROLE=watch
expect_unit phoned.socket inactive

watch transfer '{"n":1}' >/dev/null || fail "transfer 1"
watch transfer '{"n":2}' >/dev/null || fail "transfer 2"
watch context set '{"theme":"dark"}' >/dev/null || fail "context set"
[ "$(outstanding watch)" = 2 ] || fail "watch outstanding: $(outstanding watch)"
expect_unit phoned.service inactive

# The first app's connection may reach phoned.socket before the service starts: then this start
# counts as a background launch (see start_app). Delivery must happen either way.
mode=$(start_app phoned phone)
note "phoned started in the $mode"
wait_events 20 2 WC_EVENT=userInfoDelivered WC_ROLE=phone
wait_event 20 WC_EVENT=contextReceived WC_ROLE=phone
wait_events 20 2 WC_EVENT=userInfoFinished WC_ROLE=watch
wait_for 10 watch drained

ensure_foreground phoned
got=$(received_ns phone | tr '\n' ' ')
[ "$got" = "1 2 " ] || fail "phone received: $got"
[ "$(phone --json context get --received | json_get context.theme)" = dark ] || fail "received context"
# Delivered once: a second receive finds nothing.
[ -z "$(received_ns phone)" ] || fail "delivered twice"
echo "watch first, phone later: delivered"
