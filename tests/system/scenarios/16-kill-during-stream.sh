# `systemctl kill -s KILL` of either daemon while a stream of userInfo flows: systemd restarts it
# (Restart=on-failure), and every accepted transfer arrives exactly once, in order.
# The stream (9000 transfers, a few seconds) is queued while the watch is not installed, then flows
# when watchd starts; watchd is killed as soon as transfers arrive, phoned as soon as they arrive
# again after watchd's restart. Each kill must leave transfers outstanding (a kill mid-stream).
# timeout: 120
. "$WP_REPO/tests/system/lib.sh"
count=${WP_STREAM_COUNT:-9000}
reset_pair
sx systemctl start phoned.service
wait_unit phoned.service active
journal_mark
WP_SCRATCH=$(scratch)

queue_transfers phoned 1 "$count" | awk '{print $1}' > "$WP_SCRATCH/expected" || fail "queueing"
[ "$(outstanding phone)" = "$count" ] || fail "outstanding: $(outstanding phone)"
phoned_pid=$(main_pid phoned.service)

# inboxPending: transfers durably received by watchd and not yet taken by the app.
inbox() { sx wcctl --side watch --json status 2>/dev/null | json_get inboxPending; }
inbox_at_least() { [ "$(inbox)" -ge "$1" ] 2>/dev/null; }

sx systemctl start watchd.service
wait_until 30 "transfers arriving at watchd" inbox_at_least 1
sx systemctl kill -s KILL watchd.service
at_first_kill=$(outstanding phone)
note "killed watchd with $at_first_kill transfers outstanding at phoned"
# As soon as the restarted watchd acknowledges again, kill the sender.
resumed() { [ "$(outstanding phone)" -lt "$at_first_kill" ] 2>/dev/null; }
wait_until 30 "the stream resuming after watchd's restart" resumed
sx systemctl kill -s KILL phoned.service
[ "$(unit_prop watchd.service NRestarts)" -ge 1 ] || fail "watchd was not restarted"
# With the sender dead nothing flows: what watchd does not hold yet was outstanding at the kill.
at_second_kill=$((count - $(inbox)))
note "killed phoned with $at_second_kill transfers not yet at watchd"
wait_prop_ge phoned.service NRestarts 1 15
wait_unit phoned.service active
[ "$(main_pid phoned.service)" != "$phoned_pid" ] || fail "phoned has the same pid"

wait_until 60 "phone outstanding 0" outstanding_is phone 0
received_ns watch > "$WP_SCRATCH/received"
expect_same_lines "stream with two kills" "$WP_SCRATCH/expected" "$WP_SCRATCH/received"
[ "$at_first_kill" -gt 0 ] || fail "the stream was over before the first kill"
[ "$at_second_kill" -gt 0 ] || fail "the stream was over before the second kill"
[ "$(unit_prop watchd.service NRestarts)" -ge 1 ] && [ "$(unit_prop phoned.service NRestarts)" -ge 1 ] || fail "NRestarts"
expect_clean_stop phoned.service watchd.service
echo "$count transfers exactly once and in order across two SIGKILLs"
