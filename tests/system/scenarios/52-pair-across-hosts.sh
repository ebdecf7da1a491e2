# A pair across two hosts (docs/Systemd.md, "A pair across two hosts"): the phone app in network
# namespace wp-host-a, the watch app's link reached over TCP in wp-host-b, through the socat bridge of the
# docs (UNIX-LISTEN where the peer's socket would be, TCP between the namespaces, UNIX-CONNECT to the real
# socket on the other side). Each half sees only its own directory, as on two machines: the phone is
# phoned@xa (/run/watchpair/xa/), the watch watchd@xb (/run/watchpair/xb/), both with pairId "x", and each
# finds the bridge where its peer's sockets would be. The three channels pass both ways, then the link's
# TCP hop is cut: messages fail with 7007, transfers queue, and after the bridge is back every transfer
# arrives exactly once, in order.
# timeout: 120
. "$WP_REPO/tests/system/lib.sh"
. "$WP_REPO/tests/system/pairs.sh"
a=10.231.0.1 b=10.231.0.2
cleanup() {
    sx systemctl stop 'wp-test-*' 2>/dev/null
    reset_named_pair xa
    reset_named_pair xb
    sx rm -rf /run/systemd/system/phoned@xa.service.d /run/systemd/system/watchd@xb.service.d
    sx systemctl daemon-reload
    sx ip netns del wp-host-a 2>/dev/null
    sx ip netns del wp-host-b 2>/dev/null
}
trap cleanup EXIT
cleanup

# Two "hosts": network namespaces joined by a veth pair.
sx ip netns add wp-host-a || fail "ip netns add"
sx ip netns add wp-host-b || fail "ip netns add"
sx ip link add wp-a netns wp-host-a type veth peer name wp-b netns wp-host-b || fail "veth"
sx ip -n wp-host-a addr add $a/24 dev wp-a
sx ip -n wp-host-b addr add $b/24 dev wp-b
for ns in wp-host-a wp-host-b; do sx ip -n $ns link set lo up; done
sx ip -n wp-host-a link set wp-a up
sx ip -n wp-host-b link set wp-b up

# Both halves are one pair: the same pairId (the handshake checks it), each in its own directory.
for unit in phoned@xa watchd@xb; do
    sx mkdir -p "/run/systemd/system/$unit.service.d"
    sx sh -c "printf '[Service]\nEnvironment=WATCHPAIR_PAIR_ID=x\n' > /run/systemd/system/$unit.service.d/60-pair-id.conf"
done
sx systemctl daemon-reload
sx systemctl start phoned@xa.socket watchd@xb.socket || fail "socket units"

# bridge NAME HOST-NS LISTEN-PATH OTHER-NS OTHER-ADDRESS PORT TARGET-PATH: the recipe's two socat halves, as
# transient units in their namespaces: wp-test-NAME-listen (UNIX-LISTEN → TCP) on this host,
# wp-test-NAME-connect (TCP-LISTEN → UNIX-CONNECT) on the other.
bridge() {
    local name=$1 ns=$2 listen=$3 other_ns=$4 address=$5 port=$6 target=$7
    sx systemd-run --quiet --unit="wp-test-$name-connect" --collect -p NetworkNamespacePath="/run/netns/$other_ns" \
        socat "TCP-LISTEN:$port,bind=$address,fork,reuseaddr" "UNIX-CONNECT:$target" || fail "bridge $name (connect)"
    sx systemd-run --quiet --unit="wp-test-$name-listen" --collect -p NetworkNamespacePath="/run/netns/$ns" \
        socat "UNIX-LISTEN:$listen,fork,unlink-early,mode=0666" "TCP:$address:$port" || fail "bridge $name (listen)"
    wait_until 5 "bridge socket $listen" sx test -S "$listen"
}
# The phone reaches the watch app's link and control sockets; the watch reaches the phone app's.
bridge link-to-watch wp-host-a /run/watchpair/xa/watchd.sock wp-host-b $b 7101 /run/watchpair/xb/watchd.sock
bridge ctl-to-watch wp-host-a /run/watchpair/xa/watchd.ctl wp-host-b $b 7102 /run/watchpair/xb/watchd.ctl
bridge link-to-phone wp-host-b /run/watchpair/xb/phoned.sock wp-host-a $a 7103 /run/watchpair/xa/phoned.sock
bridge ctl-to-phone wp-host-b /run/watchpair/xb/phoned.ctl wp-host-a $a 7104 /run/watchpair/xa/phoned.ctl
# The TCP hop is real: nothing listens on 7101 in the phone's own namespace.
sx ip netns exec wp-host-a socat -u /dev/null TCP:127.0.0.1:7101 2>/dev/null && fail "port 7101 answers on host a's loopback"

journal_mark
sx systemctl start watchd@xb.service phoned@xa.service || fail "services"
sx timeout 30 wcctl --pair xb --side watch wait ready --timeout 20 >/dev/null || fail "watch not ready"
sx timeout 30 wcctl --pair xa wait reachable --timeout 20 >/dev/null || fail "the phone never saw the watch reachable over the bridge"
wait_event 10 WC_EVENT=peerConnected WC_PAIR=xa

# message: phone → watch and the reply back.
sx systemd-run --quiet --unit=wp-test-receiver --collect -p Type=exec \
    wcctl --pair xb --side watch receive --follow --channel message --reply '{"pong":true}'
sx timeout 30 wcctl --pair xb --side watch wait handler --timeout 20 >/dev/null || fail "the watch's handler"
reply=$(on_pair xa phone send '{"ping":1}' --timeout 5) || fail "message over the bridge"
[ "$reply" = '{"pong":true}' ] || fail "reply over the bridge: $reply"
sx systemctl stop wp-test-receiver.service
# userInfo both ways.
on_pair xa phone transfer '{"n":1}' >/dev/null || fail "transfer phone → watch"
on_pair xb watch transfer '{"from":"watch"}' >/dev/null || fail "transfer watch → phone"
sx timeout 30 wcctl --pair xa wait drained --timeout 20 >/dev/null || fail "phone not drained"
sx timeout 30 wcctl --pair xb --side watch wait drained --timeout 20 >/dev/null || fail "watch not drained"
[ "$(pair_received_ns xb)" = 1 ] || fail "the watch did not receive userInfo 1"
[ "$(sx wcctl --pair xa --side phone receive --channel userInfo | json_get userInfo.from)" = watch ] || fail "the phone did not receive the watch's userInfo"
# applicationContext.
on_pair xa phone context set '{"theme":"dark"}' >/dev/null || fail "context set"
context_arrived() { [ "$(sx wcctl --pair xb --side watch --json context get --received | json_get context.theme)" = dark ]; }
wait_until 20 "the context at the watch" context_arrived

# The link fault: the TCP hop of the phone → watch link is cut.
WP_SCRATCH=$(scratch)
sx systemctl kill -s KILL wp-test-link-to-watch-connect.service
wait_event 15 WC_EVENT=peerDisconnected WC_PAIR=xa WC_ROLE=phone
expect_status 107 on_pair xa phone send '{"ping":2}' --timeout 5
sx python3 "$(fixtures)/ctl.py" phoned@xa transfers 2 500 | awk '{print $1}' > "$WP_SCRATCH/expected" || fail "queueing with the link cut"
[ "$(pair_outstanding xa)" -gt 0 ] || fail "nothing outstanding with the link cut"
sx systemd-run --quiet --unit=wp-test-link-to-watch-connect --collect -p NetworkNamespacePath=/run/netns/wp-host-b \
    socat "TCP-LISTEN:7101,bind=$b,fork,reuseaddr" UNIX-CONNECT:/run/watchpair/xb/watchd.sock || fail "bridge back"
sx timeout 70 wcctl --pair xa wait drained --timeout 60 >/dev/null || fail "not drained after the bridge came back"
pair_received_ns xb > "$WP_SCRATCH/received"
expect_same_lines "across the bridge after a cut" "$WP_SCRATCH/expected" "$WP_SCRATCH/received"
echo "a pair across two network namespaces: message, userInfo, context and a link cut over the socat bridge"
