# Content outlives its sender (docs/Systemd.md): the phone transfers userInfo, a context and a file while the
# watch is off, then its app stops; the watch starts later and receives all three, because the phone
# announced its content (/run/watchpair/phoned.sock.pending) and the starting watch launched phoned in
# the background to deliver. Then the announcement is withdrawn and phoned exits by itself.
# timeout: 90
. "$WP_REPO/tests/system/lib.sh"
trap 'sx rm -rf /srv/wp-files' EXIT
reset_pair
sx systemctl start phoned.service
wait_unit phoned.service active
expect_unit watchd.socket inactive
journal_mark

phone transfer '{"n":1}' >/dev/null || fail "transfer"
phone context set '{"mode":"night"}' >/dev/null || fail "context"
# The services have PrivateTmp=: the file is where phoned can read it.
sx mkdir -p /srv/wp-files
sx sh -c 'head -c 3000000 /dev/urandom > /srv/wp-files/ride.fit && chmod 0644 /srv/wp-files/ride.fit' || fail "cannot make the file"
sum=$(sx sha256sum /srv/wp-files/ride.fit | cut -d' ' -f1)
phone transfer-file /srv/wp-files/ride.fit >/dev/null || fail "transfer-file"
wait_until 10 "phoned announces its content" sx test -e /run/watchpair/phoned.sock.pending
sx systemctl stop phoned.service
wait_unit phoned.service inactive
expect_unit phoned.socket active
sx test -e /run/watchpair/phoned.sock.pending || fail "the announcement did not outlive phoned"

sx systemctl start watchd.socket watchd.service
wait_unit watchd.service active
wait_event 30 WC_EVENT=backgroundLaunch WC_ROLE=phone
wait_event 30 WC_EVENT=userInfoDelivered WC_ROLE=watch
wait_event 30 WC_EVENT=contextReceived WC_ROLE=watch
wait_event 30 WC_EVENT=fileReceived WC_ROLE=watch
landed=/var/lib/watchpair/watchd/files/ride.fit
wait_until 10 "the file in watchd's files/ directory" sx test -f "$landed"
[ "$(sx sha256sum "$landed" | cut -d' ' -f1)" = "$sum" ] || fail "the file's checksum differs"
phone_announces() { sx test -e /run/watchpair/phoned.sock.pending; }
phone_withdrew() { ! phone_announces; }
wait_until 15 "phoned withdraws its announcement" phone_withdrew
got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "1 " ] || fail "watch received: $got"
ctx=$(watch context get --received) || fail "context get"
grep -q night <<<"$ctx" || fail "watch context: $ctx"
wait_event 30 WC_EVENT=idleExit WC_ROLE=phone
wait_unit phoned.service inactive 10
echo "a stopped phone's transfer, context and file reached a watch that started later"
