# Valid frames from a peer that is not the paired app: a hello with another pairId, a hello claiming
# the same role, a userInfo without any hello. Each gets a link error 7008 where a hello came, a
# handshakeFailed event, and nothing reaches the app. A process of another user cannot even connect:
# the link socket is 0660 watchpair (SocketMode=), checked again with SO_PEERCRED by the daemon.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
sock=/run/watchpair/watchd.sock
reset_pair
sx systemctl start phoned.service watchd.service
wait_unit watchd.service active
pid=$(main_pid watchd.service)
journal_mark

out=$(to_link $sock "wcctl frame hello --pair intruder")
echo "$out" | grep 'error relatesTo=0 code=7008' >/dev/null || fail "answer to another pair's hello: $out"
wait_events 5 1 WC_EVENT=handshakeFailed WC_ROLE=watch WC_ERROR_CODE=7008
out=$(to_link $sock "wcctl --side watch frame hello")
echo "$out" | grep 'error relatesTo=0 code=7008' >/dev/null || fail "answer to a second watch: $out"
wait_events 5 2 WC_EVENT=handshakeFailed WC_ROLE=watch WC_ERROR_CODE=7008
to_link $sock "wcctl frame userInfo '{\"n\":99}' --seq 1" >/dev/null
wait_events 5 3 WC_EVENT=handshakeFailed WC_ROLE=watch

# Another user: refused by the socket's permissions before the daemon sees anything.
before=$(count_events WC_ROLE=watch)
err=$(sx setpriv --reuid=nobody --regid=nogroup --clear-groups socat -u /dev/null UNIX-CONNECT:$sock 2>&1) &&
    fail "user nobody could connect to $sock"
echo "$err" | grep 'Permission denied' >/dev/null || fail "nobody's connect: $err"
[ "$(count_events WC_ROLE=watch)" = "$before" ] || fail "the refused connect produced events"

has_event WC_EVENT=userInfoDelivered WC_ROLE=watch && fail "an unknown peer's userInfo was delivered"
[ "$(main_pid watchd.service)" = "$pid" ] || fail "watchd restarted"
phone transfer '{"n":1}' >/dev/null || fail "transfer"
wait_for 10 phone drained
got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "1 " ] || fail "watch received: $got"
# Rejected connections leave nothing behind that would block a graceful stop.
expect_clean_stop watchd.service phoned.service
echo "unknown peers refused"
