# A link that stalls: the socat proxy between the apps is SIGSTOPped. Keep-alives go unanswered;
# after keepAlive.timeout (3 s in the tests) both sides report peerUnresponsive and close the link,
# the phone is no longer reachable, and content sent after the proxy resumes is delivered.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
reset_pair
trap proxy_unroute EXIT
proxy_route
proxy_start proxy "$PROXY_LISTEN" "$PROXY_TARGET"
journal_mark
sx systemctl start watchd.service phoned.service
# Links are made on demand: a transfer makes one (and it stays up while both apps run).
phone transfer '{"n":1}' >/dev/null || fail "transfer"
wait_event 10 WC_EVENT=peerConnected WC_ROLE=phone
wait_for 10 phone drained
phone_reachable() { [ "$(phone --json status | json_get reachable)" = true ]; }
wait_for 10 phone reachable

sx systemctl kill -s STOP wp-test-proxy.service
wait_event 10 WC_EVENT=peerUnresponsive WC_ROLE=phone
wait_event 10 WC_EVENT=peerUnresponsive WC_ROLE=watch
[ "$(events WC_EVENT=peerUnresponsive WC_ROLE=phone | field WC_DURATION_US | head -n1)" -ge 3000000 ] || fail "WC_DURATION_US"
wait_event 5 WC_EVENT=peerDisconnected WC_ROLE=phone
phone_reachable && fail "still reachable over a stalled link"
sx systemctl kill -s CONT wp-test-proxy.service
phone transfer '{"n":2}' >/dev/null || fail "transfer"
wait_for 30 phone drained
got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "1 2 " ] || fail "watch received: $got"
expect_clean_stop phoned.service watchd.service
echo "stalled link: detected, closed, recovered"
