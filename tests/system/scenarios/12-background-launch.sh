# `systemctl stop watchd.service` with the socket still up ("installed, not running"): a userInfo
# from the phone launches watchd in the background through socket activation; it receives, is not
# reachable for messages, and exits by itself after timeouts.idleExit (2 s in the tests).
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
reset_pair
sx systemctl start phoned.service watchd.socket
wait_unit phoned.service active
expect_unit watchd.service inactive
journal_mark

phone transfer '{"n":1}' >/dev/null || fail "transfer"
wait_event 15 WC_EVENT=backgroundLaunch WC_ROLE=watch
wait_event 15 WC_EVENT=userInfoDelivered WC_ROLE=watch
wait_event 15 WC_EVENT=userInfoFinished WC_ROLE=phone
has_event WC_EVENT=foregroundLaunch WC_ROLE=watch && fail "watchd claims a foreground launch"

wait_event 20 WC_EVENT=idleExit WC_ROLE=watch
wait_unit watchd.service inactive 10
[ "$(unit_prop watchd.service Result)" = success ] || fail "Result=$(unit_prop watchd.service Result)"
[ "$(unit_prop watchd.service ExecMainStatus)" = 0 ] || fail "exit status $(unit_prop watchd.service ExecMainStatus)"
expect_unit watchd.socket active
sx test -S /run/watchpair/watchd.sock || fail "socket file gone"

# What was delivered waits in watchd's store for the app.
sx systemctl start watchd.service
wait_unit watchd.service active
got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "1 " ] || fail "watch received: $got"
echo "background launch, delivery, idle exit"
