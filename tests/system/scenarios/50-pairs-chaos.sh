# Four pairs at once (the template units phoned@NAME, watchd@NAME), each through its own chaos while the
# others run: a stream of userInfo through the pair's own socat proxy, a kill -9 of its watch app in the
# middle, then its link cut (messages fail 7007, new transfers queue) and restored. For every pair every
# accepted transfer arrives exactly once, in order (the queue check of the fault scenarios); each pair's
# journal entries carry its WC_PAIR; no pair's kill restarted another's app; `wcctl --pair` and
# `events` see one pair only; the default pair, running beside them, keeps its names and paths.
# timeout: 280
. "$WP_REPO/tests/system/lib.sh"
. "$WP_REPO/tests/system/pairs.sh"
pairs="ci-1 ci-2 ci-3 ci-4"
count=${WP_PAIRS_COUNT:-3000}
cleanup() {
    for pair in $pairs; do reset_named_pair "$pair"; done
    sx systemctl daemon-reload
}
trap cleanup EXIT
reset_pair
for pair in $pairs; do reset_named_pair "$pair"; done
# The relaunched watch app finds the phone's connection waiting: a background launch. It must not exit
# when idle (2 s in the tests) before the checks: a start after a clean exit sets NRestarts back to 0,
# and `wcctl --pair … events` needs the app up. Routing and this need a daemon-reload: once for all,
# before anything runs in parallel.
for pair in $pairs; do
    sx mkdir -p "/run/systemd/system/watchd@$pair.service.d"
    sx sh -c "printf '[Service]\nEnvironment=WATCHPAIR_TIMEOUTS_IDLE_EXIT=600\n' > /run/systemd/system/watchd@$pair.service.d/60-no-idle-exit.conf"
done
# shellcheck disable=SC2086 # one word per pair
pair_proxy_route $pairs
journal_mark
WP_SCRATCH=$(scratch)

# The default pair runs beside them, at today's paths.
sx systemctl start phoned.service watchd.service
wait_unit watchd.service active
sx test -S /run/watchpair/phoned.ctl || fail "the default pair's control socket is not /run/watchpair/phoned.ctl"

# chaos NAME: one pair's run, in a subshell of its own; its last line is "NAME ok" when it passed.
chaos() {
    local pair=$1 out=$WP_SCRATCH/$1
    # shellcheck disable=SC2046
    sx systemctl start "phoned@$pair.socket" "watchd@$pair.socket" || fail "$pair: sockets"
    pair_proxy_start "$pair"
    sx systemctl start "phoned@$pair.service" "watchd@$pair.service" || fail "$pair: services"
    sx timeout 30 wcctl --pair "$pair" --side watch wait ready --timeout 20 >/dev/null || fail "$pair: watch not ready"

    # 1. kill -9 of the watch app while the stream flows.
    sx python3 "$(fixtures)/ctl.py" "phoned@$pair" transfers 1 "$count" | awk '{print $1}' > "$out.expected" &
    local queuer=$!
    wait_until 60 "$pair: transfers arriving at its watch" pair_inbox_at_least "$pair" 1
    [ "$(main_pid "watchd@$pair.service")" -gt 0 ] 2>/dev/null || fail "$pair: no watch app running to kill"
    sx systemctl kill -s KILL "watchd@$pair.service"
    note "$pair: watch app killed with $(pair_inbox "$pair" || echo ?) received so far"
    wait "$queuer" || fail "$pair: queueing"
    wait_prop_ge "watchd@$pair.service" NRestarts 1 20

    # 2. The link cut: the proxy killed. Messages fail at once, new transfers queue at the phone.
    sx timeout 30 wcctl --pair "$pair" wait drained --timeout 60 >/dev/null || fail "$pair: not drained after the kill"
    sx systemctl kill -s KILL "wp-test-proxy-$pair.service"
    wait_until 15 "$pair: its phone to see the watch unreachable" pair_unreachable "$pair"
    expect_status 107 on_pair "$pair" phone send '{"ping":1}' --timeout 2
    sx python3 "$(fixtures)/ctl.py" "phoned@$pair" transfers $((count + 1)) $((count + 200)) | awk '{print $1}' >> "$out.expected" ||
        fail "$pair: queueing with the link cut"
    [ "$(pair_outstanding "$pair")" = 200 ] || fail "$pair: $(pair_outstanding "$pair") outstanding with the link cut, expected 200"

    # 3. The link back: everything arrives, exactly once, in order.
    pair_proxy_start "$pair"
    sx timeout 70 wcctl --pair "$pair" wait drained --timeout 60 >/dev/null || fail "$pair: not drained after the link came back"
    pair_received_ns "$pair" > "$out.received"
    expect_same_lines "$pair after a kill and a link cut" "$out.expected" "$out.received"
    echo "$pair ok"
}
for pair in $pairs; do
    (chaos "$pair") > "$WP_SCRATCH/$pair.log" 2>&1 &
done
wait
for pair in $pairs; do
    tail -n1 "$WP_SCRATCH/$pair.log" | grep -qx "$pair ok" || { cat "$WP_SCRATCH/$pair.log" >&2; fail "pair $pair"; }
done

# Each kill touched its own pair only: one restart of each watch app, none of any phone app, and the
# default pair's apps still the processes they were.
for pair in $pairs; do
    [ "$(unit_prop "watchd@$pair.service" NRestarts)" = 1 ] || fail "watchd@$pair restarted $(unit_prop "watchd@$pair.service" NRestarts) times"
    [ "$(unit_prop "phoned@$pair.service" NRestarts)" = 0 ] || fail "phoned@$pair restarted"
done
[ "$(unit_prop watchd.service NRestarts)" = 0 ] || fail "the default pair's watch app restarted"

# Journal entries name their pair: every event of watchd@ci-2's process carries WC_PAIR=ci-2.
values=$(events _SYSTEMD_UNIT=watchd@ci-2.service WC_EVENT=userInfoDelivered | field WC_PAIR | sort -u)
[ "$values" = ci-2 ] || fail "watchd@ci-2's events carry WC_PAIR '$values'"
[ "$(count_events WC_PAIR=ci-3 WC_EVENT=peerDisconnected WC_ROLE=phone)" -ge 1 ] || fail "no peerDisconnected with WC_PAIR=ci-3"
# `wcctl --pair` and its events see one pair: ci-1's watch app was delivered exactly its own transfers.
delivered=$(sx wcctl --pair ci-1 --side watch --json events --event userInfoDelivered | grep -c '^{')
[ "$delivered" -ge 1 ] || fail "no userInfoDelivered in wcctl --pair ci-1 events"
expect_status 0 sx wcctl --pair ci-1 timeline --mermaid /dev/null
[ "$(sx wcctl --pair ci-1 --side watch --json events --event foregroundLaunch --event backgroundLaunch | grep -c '^{')" -ge 2 ] ||
    fail "ci-1's events do not show its watch app's relaunch"
[ "$(sx wcctl --side watch --json events --event foregroundLaunch --event backgroundLaunch | grep -c '^{')" = 1 ] ||
    fail "the default pair's events show a relaunch it never had"

# Stopping one pair leaves the others running.
# shellcheck disable=SC2046
sx systemctl stop $(pair_units ci-1)
pid=$(main_pid phoned@ci-2.service)
on_pair ci-2 phone transfer '{"after":"ci-1 stopped"}' >/dev/null || fail "ci-2 transfer after ci-1 stopped"
sx timeout 30 wcctl --pair ci-2 wait drained --timeout 20 >/dev/null || fail "ci-2 not drained"
[ "$(main_pid phoned@ci-2.service)" = "$pid" ] || fail "phoned@ci-2 changed when ci-1 stopped"
expect_unit watchd.service active
echo "4 pairs: each exactly once and in order through a kill -9 and a link cut; isolated"
