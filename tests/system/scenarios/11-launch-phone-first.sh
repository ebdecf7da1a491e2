# The phone app runs first while the watch app is not installed: its userInfo and context queue.
# Installing and starting the watch later delivers them, in order, and the phone hears didFinish.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
reset_pair
journal_mark
sx systemctl start phoned.service
wait_unit phoned.service active
wait_event 10 WC_EVENT=foregroundLaunch WC_ROLE=phone
expect_unit watchd.socket inactive

phone transfer '{"n":1}' >/dev/null || fail "transfer 1"
phone transfer '{"n":2}' >/dev/null || fail "transfer 2"
phone context set '{"theme":"dark"}' >/dev/null || fail "context set"
[ "$(outstanding phone)" = 2 ] || fail "phone outstanding: $(outstanding phone)"
expect_unit watchd.service inactive

# The first app's connection may reach watchd.socket before the service starts: then this start
# counts as a background launch (see start_app). Delivery must happen either way.
mode=$(start_app watchd watch)
note "watchd started in the $mode"
wait_events 20 2 WC_EVENT=userInfoDelivered WC_ROLE=watch
wait_event 20 WC_EVENT=contextReceived WC_ROLE=watch
wait_events 20 2 WC_EVENT=userInfoFinished WC_ROLE=phone
wait_for 10 phone drained

ensure_foreground watchd
got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "1 2 " ] || fail "watch received: $got"
[ "$(watch --json context get --received | json_get context.theme)" = dark ] || fail "received context"
# Delivered once: a second receive finds nothing.
[ -z "$(received_ns watch)" ] || fail "delivered twice"
echo "phone first, watch later: delivered"
