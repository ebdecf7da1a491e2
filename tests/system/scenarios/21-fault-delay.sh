# A slow link: a socat proxy that waits before connecting through, so the peer's hello arrives late.
# Within timeouts.handshake (3 s in the tests) it only slows the first message down; beyond it the
# handshake fails (handshakeFailed), userInfo stays queued, and it is delivered once the link is
# fast enough again.
# timeout: 90
. "$WP_REPO/tests/system/lib.sh"
reset_pair
trap proxy_unroute EXIT
proxy_route
proxy_start delay "$PROXY_LISTEN" "SYSTEM:'sleep 1; exec socat - $PROXY_TARGET'"
proxy_started=$(unit_prop wp-test-delay.service ExecMainStartTimestampMonotonic)
journal_mark
# watchd first: phoned, finding it running, links at start-up, through the 1 s delay.
sx systemctl start watchd.service
wait_unit watchd.service active
sx systemd-run --quiet --unit=wp-test-receiver --collect -p Type=exec wcctl --side watch receive --follow --channel message --reply '{"pong":true}'
wait_unit wp-test-receiver.service active
sx systemctl start phoned.service

# One second of delay: the handshake completes late (journal timestamps: at least 1 s after the
# proxy started), the link works and a message is answered.
wait_event 10 WC_EVENT=peerConnected WC_ROLE=phone
linked=$(events WC_EVENT=peerConnected WC_ROLE=phone | field __MONOTONIC_TIMESTAMP | tail -n1)
note "handshake completed $(((linked - proxy_started) / 1000)) ms after the proxy started"
[ $((linked - proxy_started)) -ge 1000000 ] || fail "linked $(((linked - proxy_started) / 1000)) ms after the proxy started: no delay"
reply=$(phone send '{"ping":1}' --timeout 8) || fail "send over the slow link exited $?"
[ "$(echo "$reply" | json_get pong)" = true ] || fail "reply $reply"
has_event WC_EVENT=handshakeFailed && fail "handshake failed with a 1 s delay"

# Five seconds of delay, over the 3 s handshake timeout: the handshake fails, content waits.
journal_mark
sx systemctl stop wp-test-delay.service
proxy_start delay "$PROXY_LISTEN" "SYSTEM:'sleep 5; exec socat - $PROXY_TARGET'"
phone transfer '{"n":1}' >/dev/null || fail "transfer"
wait_event 10 WC_EVENT=handshakeFailed WC_ROLE=phone
[ "$(outstanding phone)" = 1 ] || fail "outstanding $(outstanding phone) after a failed handshake"
has_event WC_EVENT=userInfoDelivered WC_ROLE=watch && fail "delivered although every handshake times out"

# Back to a fast link: delivered.
sx systemctl stop wp-test-delay.service
proxy_start proxy "$PROXY_LISTEN" "$PROXY_TARGET"
wait_for 30 phone drained
sx systemctl stop wp-test-receiver.service
got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "1 " ] || fail "watch received: $got"
expect_clean_stop phoned.service watchd.service
echo "slow links: late but delivered; too slow: handshake fails, content waits"
