# Raw garbage written into a daemon's link socket (socat): the daemon answers with a link error
# (7009 for an impossible length, 7008 otherwise), logs frameRejected with WC_ERROR_CODE, closes that
# connection and carries on: same process, still serving. Garbage into a stopped app's socket
# launches it in the background; it rejects the bytes and idle-exits cleanly.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
sock=/run/watchpair/watchd.sock
reset_pair
sx systemctl start phoned.service watchd.service
wait_unit watchd.service active
pid=$(main_pid watchd.service)
journal_mark

# "GET " read as a length is 1,195,725,856: over the 1 MiB limit, rejected from the header alone.
out=$(to_link $sock "printf 'GET / HTTP/1.0\r\n\r\n'")
echo "$out" | grep 'error relatesTo=0 code=7009' >/dev/null || fail "answer to an HTTP request: $out"
wait_event 5 WC_EVENT=frameRejected WC_ROLE=watch WC_ERROR_CODE=7009
# A zero length.
out=$(to_link $sock "printf '\\000\\000\\000\\000'")
echo "$out" | grep 'error relatesTo=0 code=7008' >/dev/null || fail "answer to a zero length: $out"
wait_event 5 WC_EVENT=frameRejected WC_ROLE=watch WC_ERROR_CODE=7008
# A valid frame with one byte flipped: the checksum catches it.
out=$(to_link $sock "wcctl frame hello --corrupt 12")
echo "$out" | grep 'error relatesTo=0 code=7008' >/dev/null || fail "answer to a corrupt hello: $out"
events WC_EVENT=frameRejected WC_ROLE=watch | field MESSAGE | grep 'checksum' >/dev/null || fail "no checksum rejection"
# Random bytes.
before=$(count_events WC_EVENT=frameRejected WC_ROLE=watch)
to_link $sock "head -c 4096 /dev/urandom" >/dev/null
wait_events 5 $((before + 1)) WC_EVENT=frameRejected WC_ROLE=watch

[ "$(main_pid watchd.service)" = "$pid" ] || fail "watchd restarted"
[ "$(unit_prop watchd.service NRestarts)" = 0 ] || fail "NRestarts $(unit_prop watchd.service NRestarts)"
phone transfer '{"n":1}' >/dev/null || fail "transfer"
wait_event 10 WC_EVENT=userInfoDelivered WC_ROLE=watch

# Into a stopped app: a background launch that rejects the garbage and exits by itself.
expect_clean_stop watchd.service
journal_mark
to_link $sock "printf 'GET / HTTP/1.0\r\n\r\n'" | grep 'code=7009' >/dev/null || fail "no 7009 from a socket-activated watchd"
wait_event 10 WC_EVENT=backgroundLaunch WC_ROLE=watch
wait_event 5 WC_EVENT=frameRejected WC_ROLE=watch WC_ERROR_CODE=7009
wait_event 15 WC_EVENT=idleExit WC_ROLE=watch
wait_unit watchd.service inactive
[ "$(unit_prop watchd.service Result)" = success ] || fail "Result=$(unit_prop watchd.service Result)"

# Garbage from a writer that closes at once (`printf … | socat - UNIX-CONNECT:…`) is reported too.
sx systemctl start watchd.service
wait_unit watchd.service active
journal_mark
to_link $sock "printf 'GET / HTTP/1.0\r\n\r\n'" 0 >/dev/null
wait_event 5 WC_EVENT=frameRejected WC_ROLE=watch
# Rejected connections leave nothing behind that would block a graceful stop.
expect_clean_stop watchd.service phoned.service
echo "garbage rejected, daemon unharmed"
