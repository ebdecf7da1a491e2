# `systemctl stop watchd.socket watchd.service` ("device off", docs/Lifecycle.md): the phone's userInfo queues,
# its messages fail at once with 7007 and the watch app still counts as installed (nothing listens, but
# it was not uninstalled: 42-app-not-installed is that case); starting the watch again delivers
# everything, in order.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
reset_pair
sx systemctl start phoned.service
wait_unit phoned.service active
expect_unit watchd.socket inactive
sx test -e /run/watchpair/watchd.sock && fail "watchd.sock exists while watchd.socket is stopped"
journal_mark
WP_SCRATCH=$(scratch)

queue_transfers phoned 1 20 | awk '{print $1}' > "$WP_SCRATCH/expected" || fail "queueing"
expect_status 107 phone send '{"ping":1}'
expect_status 107 phone send '{"ping":2}' --no-reply
wait_events 5 2 WC_EVENT=messageFailed WC_ROLE=phone WC_ERROR_CODE=7007
[ "$(outstanding phone)" = 20 ] || fail "outstanding: $(outstanding phone)"
[ "$(phone --json status | json_get peerInstalled)" = true ] || fail "device off: peerInstalled is not true"
[ "$(phone --json status | json_get peerListening)" = false ] || fail "device off: peerListening is not false"
expect_unit watchd.service inactive

sx systemctl start watchd.socket watchd.service
wait_unit watchd.service active
wait_for 30 phone drained
received_ns watch > "$WP_SCRATCH/received"
expect_same_lines "phone to watch" "$WP_SCRATCH/expected" "$WP_SCRATCH/received"
[ "$(count_events WC_EVENT=userInfoDelivered WC_ROLE=watch)" = 20 ] || fail "userInfoDelivered events: $(count_events WC_EVENT=userInfoDelivered WC_ROLE=watch)"
echo "queued while not installed, delivered in order after"
