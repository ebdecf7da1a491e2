# Helpers for the scenarios of several pairs on one host (docs/Systemd.md, "Many pairs on one host"),
# sourced after lib.sh. Pair NAME is phoned@NAME and watchd@NAME: sockets in /run/watchpair/NAME/, state in
# /var/lib/watchpair/NAME/, journal entries with WC_PAIR=NAME.

# pair_units NAME: the pair's four units, services first (the order `systemctl stop` wants).
pair_units() { echo "phoned@$1.service watchd@$1.service phoned@$1.socket watchd@$1.socket"; }

# reset_named_pair NAME: stopped, state and sockets removed, its drop-ins and proxy gone.
reset_named_pair() {
    # shellcheck disable=SC2046 # one word per unit
    sx systemctl stop "wp-test-proxy-$1.service" $(pair_units "$1") 2>/dev/null
    # shellcheck disable=SC2046
    sx systemctl reset-failed $(pair_units "$1") 2>/dev/null
    sx rm -rf "/var/lib/watchpair/$1" "/run/watchpair/$1" "/run/systemd/system/phoned@$1.service.d" \
        "/run/systemd/system/watchd@$1.service.d"
}

# on_pair NAME SIDE ARGS...: wcctl of pair NAME (at most 30 s), as a user would type it.
on_pair() {
    local pair=$1 side=$2
    shift 2
    sx timeout 30 wcctl --pair "$pair" --side "$side" "$@"
}

# pair_inbox NAME: transfers durably received by the pair's watch app, not yet taken.
pair_inbox() { on_pair "$1" watch --json status 2>/dev/null | json_get inboxPending; }
pair_inbox_at_least() { [ "$(pair_inbox "$1")" -ge "$2" ] 2>/dev/null; }
pair_unreachable() { [ "$(on_pair "$1" phone --json status | json_get reachable)" = false ]; }
pair_outstanding() { on_pair "$1" phone --json status | json_get outstandingTransfers; }

# pair_received_ns NAME: takes every userInfo waiting for the pair's watch app; prints their "n" in order.
pair_received_ns() {
    local batch
    while batch=$(sx wcctl --pair "$1" --side watch receive --channel userInfo) && [ -n "$batch" ]; do
        echo "$batch"
    done | $PY -c '
import json, sys
for line in sys.stdin:
    print(json.loads(line)["userInfo"].get("n"))'
}

# pair_proxy_route NAME...: each pair's phoned reaches its watchd only through /run/watchpair/NAME/proxy.sock
# (an instance drop-in; one daemon-reload for all); start phoned@NAME after it. reset_named_pair undoes it.
pair_proxy_sock() { echo "/run/watchpair/$1/proxy.sock"; }
pair_proxy_route() {
    local pair
    for pair in "$@"; do
        sx mkdir -p "/run/systemd/system/phoned@$pair.service.d"
        sx sh -c "printf '[Service]\nEnvironment=WATCHPAIR_PATHS_PEER_LINK=$(pair_proxy_sock "$pair")\n' \
            > /run/systemd/system/phoned@$pair.service.d/60-proxy.conf"
    done
    sx systemctl daemon-reload
}
# pair_proxy_start NAME: the proxy, as the transient unit wp-test-proxy-NAME, once its socket is there.
pair_proxy_start() {
    local sock
    sock=$(pair_proxy_sock "$1")
    sx rm -f "$sock"
    sx systemd-run --quiet --unit="wp-test-proxy-$1" --collect \
        socat "UNIX-LISTEN:$sock,fork,unlink-early,mode=0666" "UNIX-CONNECT:/run/watchpair/$1/watchd.sock" ||
        fail "systemd-run socat for $1"
    wait_until 5 "proxy socket $sock" sx test -S "$sock"
}
