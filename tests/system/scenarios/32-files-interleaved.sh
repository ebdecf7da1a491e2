# Files and userInfo interleaved keep each channel's order (docs/Design.md): the phone queues userInfo
# {"n":1..6} and files f1..f6 alternately while the watch app is not running; the watch is launched in
# the background to take them, and receives n = 1..6 and f1..f6 in order, each once. Then what the
# installed apps see: a member of group watchpair (no root) reads the received files; a file the
# service's user cannot read, and a FIFO, are 7008 naming the path, with nothing queued.
# timeout: 120
. "$WP_REPO/tests/system/lib.sh"
dir=/srv/wp-files
trap 'sx rm -rf "$dir"' EXIT
reset_pair
sx systemctl start phoned.service watchd.socket
wait_unit phoned.service active
journal_mark

# The services have PrivateTmp= and ProtectHome=: the files are where phoned can read them.
sx mkdir -p "$dir"
sx chmod 0755 "$dir"
for n in 1 2 3 4 5 6; do
    # Sizes from 64 KiB to about 2.3 MiB: several chunk windows each, so the channels overlap on the link.
    sx sh -c "head -c $((n * n * 65536)) /dev/urandom > $dir/f$n.bin && chmod 0644 $dir/f$n.bin" || fail "cannot make f$n"
done
for n in 1 2 3 4 5 6; do
    phone transfer "{\"n\":$n}" >/dev/null || fail "transfer $n"
    phone transfer-file "$dir/f$n.bin" >/dev/null || fail "transfer-file f$n"
done
wait_for 60 phone drained
wait_events 30 6 WC_EVENT=fileFinished WC_ROLE=phone

got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "1 2 3 4 5 6 " ] || fail "userInfo received in this order: $got"
files=$(events WC_EVENT=fileReceived WC_ROLE=watch | field WC_FILE_NAME | tr '\n' ' ')
[ "$files" = "f1.bin f2.bin f3.bin f4.bin f5.bin f6.bin " ] || fail "files received in this order: $files"

# A member of group watchpair, not root, lists and reads what arrived.
sx sh -c 'getent passwd wpmember >/dev/null || useradd --no-create-home --groups watchpair wpmember' || fail "useradd wpmember"
as_member() { sx setpriv --reuid=wpmember --regid=wpmember --init-groups timeout 30 "$@"; }
listed=$(as_member wcctl --side watch --json files | $PY -c '
import json, sys
names = [json.loads(line).get("received", {}).get("name") for line in sys.stdin]
print(" ".join(name for name in names if name))')
[ "$listed" = "f1.bin f2.bin f3.bin f4.bin f5.bin f6.bin" ] || fail "wpmember's wcctl files: $listed"
for n in 1 2 3 4 5 6; do
    sent=$(sx sha256sum "$dir/f$n.bin" | cut -d' ' -f1)
    read_back=$(as_member sha256sum "/var/lib/watchpair/watchd/files/f$n.bin" | cut -d' ' -f1) ||
        fail "wpmember cannot read f$n.bin ($(sx stat -c '%U %G %a' /var/lib/watchpair/watchd/files/f$n.bin))"
    [ "$read_back" = "$sent" ] || fail "f$n.bin differs"
done

# Bad input: the service's user (watchpair) cannot read a root-only file; a FIFO is no regular file.
sx sh -c "echo secret > $dir/secret.bin && chmod 0600 $dir/secret.bin"
sx mkfifo -m 0644 "$dir/pipe"
for bad in "$dir/secret.bin" "$dir/pipe"; do
    err=$(sx timeout 20 wcctl --side phone transfer-file "$bad" 2>&1 >/dev/null)
    status=$?
    [ "$status" = 108 ] || fail "transfer-file $bad: exit $status ($err), expected 108 (7008)"
    grep -qF "$bad" <<<"$err" || fail "the error does not name $bad: $err"
done
[ "$(sx wcctl --side phone --json status | json_get outstandingFiles)" = 0 ] || fail "a bad file was queued"
echo "6 userInfo and 6 files interleaved: each channel in order, once; wpmember reads them; unreadable and FIFO are 7008"
