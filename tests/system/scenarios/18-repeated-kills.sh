# Killing a daemon again and again (as fault tests do) never leaves it in start-limit-hit: the units'
# StartLimitBurst= leaves room, and each kill is followed by a restart.
# timeout: 90
. "$WP_REPO/tests/system/lib.sh"
reset_pair
sx systemctl start phoned.service watchd.service
wait_unit watchd.service active
kills=12
for i in $(seq 1 $kills); do
    pid=$(main_pid watchd.service)
    sx systemctl kill -s KILL watchd.service
    wait_prop_ge watchd.service NRestarts "$i" 15
    wait_unit watchd.service active
    [ "$(main_pid watchd.service)" != "$pid" ] || fail "kill $i: same pid"
done
[ "$(unit_prop watchd.service Result)" != start-limit-hit ] || fail "start-limit-hit"
expect_unit watchd.socket active
# Still serving.
journal_mark
phone transfer '{"n":1}' >/dev/null || fail "transfer"
wait_event 15 WC_EVENT=userInfoDelivered WC_ROLE=watch
echo "$kills kills, $kills restarts, still serving"
