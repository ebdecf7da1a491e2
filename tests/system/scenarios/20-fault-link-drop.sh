# Link drop: phoned reaches watchd through a socat proxy, which is killed while a stream of userInfo
# flows. Both sides see peerDisconnected, messages fail with 7007 while the link is down, and after
# the proxy comes back every transfer arrives exactly once, in order. Then a flaky proxy that cuts
# every connection after 0.3 s: the stream still completes, exactly once, over many links.
# timeout: 150
. "$WP_REPO/tests/system/lib.sh"
reset_pair
trap proxy_unroute EXIT
proxy_route
proxy_start proxy "$PROXY_LISTEN" "$PROXY_TARGET"
journal_mark
sx systemctl start watchd.service phoned.service
WP_SCRATCH=$(scratch)
inbox() { sx wcctl --side watch --json status 2>/dev/null | json_get inboxPending; }
inbox_at_least() { [ "$(inbox)" -ge "$1" ] 2>/dev/null; }

# 1. Kill the proxy mid-stream.
queue_transfers phoned 1 9000 | awk '{print $1}' > "$WP_SCRATCH/expected" &
queuer=$!
wait_until 30 "transfers arriving at watchd" inbox_at_least 1
sx systemctl kill -s KILL wp-test-proxy.service
wait $queuer || fail "queueing"
at_kill=$(outstanding phone)
note "proxy killed with $at_kill transfers outstanding"
[ "$at_kill" -gt 0 ] || fail "the stream was over before the link dropped"
wait_event 10 WC_EVENT=peerDisconnected WC_ROLE=phone
wait_event 10 WC_EVENT=peerDisconnected WC_ROLE=watch
expect_status 107 phone send '{"ping":1}' --timeout 2
[ "$(phone --json status | json_get reachable)" = false ] || fail "phone still reachable"
[ "$(outstanding phone)" = "$at_kill" ] || fail "outstanding changed while the link was down"
proxy_start proxy "$PROXY_LISTEN" "$PROXY_TARGET"
wait_for 60 phone drained
received_ns watch > "$WP_SCRATCH/received"
expect_same_lines "after a link drop" "$WP_SCRATCH/expected" "$WP_SCRATCH/received"

# 2. A flaky link: every connection through the proxy is cut after 0.3 s.
sx systemctl stop wp-test-proxy.service
proxy_start flaky "$PROXY_LISTEN" "SYSTEM:'exec timeout 0.3 socat - $PROXY_TARGET'"
journal_mark
queue_transfers phoned 9001 18000 | awk '{print $1}' > "$WP_SCRATCH/expected2" || fail "queueing"
wait_for 90 phone drained
links=$(count_events WC_EVENT=peerConnected WC_ROLE=phone)
note "flaky stream used $links links"
[ "$links" -ge 2 ] || fail "the stream needed only $links link(s): no drop happened mid-stream"
received_ns watch > "$WP_SCRATCH/received2"
expect_same_lines "over a flaky link" "$WP_SCRATCH/expected2" "$WP_SCRATCH/received2"
expect_clean_stop phoned.service watchd.service
echo "link drops lose and duplicate nothing"
