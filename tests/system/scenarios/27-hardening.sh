# The running services are as hardened as the units say: user watchpair, no capabilities, no new
# privileges, seccomp, a 0750 state directory (its store 0600), 0660 control sockets (group watchpair), 0660 link sockets; and
# `systemd-analyze security` (online, in the sandbox) rates them below 2.0.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
reset_pair
sx systemctl start phoned.service watchd.service
wait_unit phoned.service active
wait_unit watchd.service active
for daemon in phoned watchd; do
    pid=$(main_pid $daemon.service)
    status=$(sx cat /proc/$pid/status)
    [ "$(sx stat -c %U /proc/$pid)" = watchpair ] || fail "$daemon runs as $(sx stat -c %U /proc/$pid)"
    echo "$status" | grep -E '^NoNewPrivs:[[:space:]]+1$' >/dev/null || fail "$daemon: NoNewPrivs"
    echo "$status" | grep -E '^Seccomp:[[:space:]]+2$' >/dev/null || fail "$daemon: Seccomp"
    echo "$status" | grep -E '^CapEff:[[:space:]]+0+$' >/dev/null || fail "$daemon: CapEff"
    [ "$(sx stat -c '%U %a' /var/lib/watchpair/$daemon)" = "watchpair 750" ] || fail "state dir: $(sx stat -c '%U %a' /var/lib/watchpair/$daemon)"
    [ "$(sx stat -c '%a' /var/lib/watchpair/$daemon/watchpair.sqlite)" = 600 ] || fail "store: $(sx stat -c '%a' /var/lib/watchpair/$daemon/watchpair.sqlite)"
    wait_for 5 "$([ $daemon = phoned ] && echo phone || echo watch)" ready
    [ "$(sx stat -c '%U %G %a' /run/watchpair/$daemon.ctl)" = "watchpair watchpair 660" ] || fail "$daemon.ctl: $(sx stat -c '%U %G %a' /run/watchpair/$daemon.ctl)"
    [ "$(sx stat -c '%U %G %a' /run/watchpair/$daemon.sock)" = "watchpair watchpair 660" ] || fail "$daemon.sock: $(sx stat -c '%U %G %a' /run/watchpair/$daemon.sock)"
    line=$(sx systemd-analyze security --no-pager $daemon.service | grep 'Overall exposure')
    note "$line"
    exposure=$(echo "$line" | sed -n 's/.*: \([0-9.]*\) .*/\1/p')
    awk -v e="$exposure" 'BEGIN { exit !(e < 2.0) }' || fail "$daemon exposure $exposure"
done
echo "hardened"
