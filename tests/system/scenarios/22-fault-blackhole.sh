# A peer that looks reachable but is not: a socat proxy that accepts and reads but never forwards.
# The connect succeeds, no hello comes back: the phone fails the handshake after timeouts.handshake
# (3 s in the tests), messages fail at once with 7007, userInfo waits, and is delivered once a
# working link is back.
# timeout: 90
. "$WP_REPO/tests/system/lib.sh"
reset_pair
trap proxy_unroute EXIT
proxy_route
proxy_start hole "$PROXY_LISTEN" "SYSTEM:'exec cat >/dev/null'"
journal_mark
sx systemctl start watchd.service phoned.service
wait_unit phoned.service active

phone transfer '{"n":1}' >/dev/null || fail "transfer"
start=$(date +%s)
status=0
sx timeout 15 wcctl send '{"ping":1}' --timeout 5 >/dev/null 2>&1 || status=$?
[ $status = 107 ] || fail "send through a black hole exited $status after $(($(date +%s) - start)) s, expected 107 at once"
[ "$(phone --json status | json_get reachable)" = false ] || fail "reachable through a black hole"
wait_event 10 WC_EVENT=handshakeFailed WC_ROLE=phone
[ "$(outstanding phone)" = 1 ] || fail "outstanding $(outstanding phone)"
sx systemctl stop wp-test-hole.service
proxy_start proxy "$PROXY_LISTEN" "$PROXY_TARGET"
wait_until 30 "phone outstanding 0" outstanding_is phone 0
got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "1 " ] || fail "watch received: $got"
expect_clean_stop phoned.service watchd.service
echo "black hole: detected, nothing lost"
