# Truncated frames: a writer that stops inside a frame and closes (half a second later). The daemon logs frameRejected
# ("the stream ended inside a frame"), delivers nothing to the app, and carries on. The phone app starts
# only afterwards: while it is linked, a second phone's hello is refused before any userInfo of it is read.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
sock=/run/watchpair/watchd.sock
reset_pair
sx systemctl start watchd.service
wait_unit watchd.service active
pid=$(main_pid watchd.service)
journal_mark

# The first 20 bytes of a valid hello.
out=$(to_link $sock "wcctl frame hello --truncate 20" 0.5)
echo "$out" | grep '^hello ' >/dev/null || fail "watchd did not send its hello: $out"
wait_events 5 1 WC_EVENT=frameRejected WC_ROLE=watch
# A header announcing 65 bytes, and nothing else.
to_link $sock "printf '\\000\\000\\000\\101'" 0.5 >/dev/null
wait_events 5 2 WC_EVENT=frameRejected WC_ROLE=watch
# A valid hello, then half of a userInfo frame.
to_link $sock "wcctl frame hello; wcctl frame userInfo '{\"n\":99}' --seq 1 --truncate 30" 0.5 >/dev/null
wait_events 5 3 WC_EVENT=frameRejected WC_ROLE=watch
events WC_EVENT=frameRejected WC_ROLE=watch | field MESSAGE | grep 'ended inside a frame' >/dev/null || fail "no 'ended inside a frame'"

has_event WC_EVENT=userInfoDelivered WC_ROLE=watch && fail "a truncated frame was delivered"
[ "$(sx wcctl --side watch --json status | json_get inboxPending)" = 0 ] || fail "inboxPending"
[ "$(main_pid watchd.service)" = "$pid" ] || fail "watchd restarted"
sx systemctl start phoned.service
wait_unit phoned.service active
phone transfer '{"n":1}' >/dev/null || fail "transfer"
wait_for 10 phone drained
got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "1 " ] || fail "watch received: $got"
# Rejected connections leave nothing behind that would block a graceful stop.
expect_clean_stop watchd.service phoned.service
echo "truncated frames rejected"
