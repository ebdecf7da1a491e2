# A pair whose disk is full fails on its own: pair ci-5 keeps its state on a small disk of its own (a
# 1 MiB tmpfs at /var/lib/watchpair/ci-5), which is then filled. Its phone app refuses new transfers with
# 7015 insufficientSpace, while pair ci-6 and the default pair, on the host's disk, go on delivering.
# timeout: 90
. "$WP_REPO/tests/system/lib.sh"
. "$WP_REPO/tests/system/pairs.sh"
cleanup() {
    reset_named_pair ci-6
    sx systemctl stop $(pair_units ci-5) 2>/dev/null
    sx umount /var/lib/watchpair/ci-5 2>/dev/null
    reset_named_pair ci-5
}
trap cleanup EXIT
reset_pair
reset_named_pair ci-5
reset_named_pair ci-6
sx mkdir -p /var/lib/watchpair/ci-5
sx mount -t tmpfs -o size=1m tmpfs /var/lib/watchpair/ci-5 || fail "cannot mount the small disk"
for pair in ci-5 ci-6; do
    # shellcheck disable=SC2046
    sx systemctl start $(pair_units "$pair") || fail "start $pair"
done
sx systemctl start phoned.service watchd.service
journal_mark
for pair in ci-5 ci-6; do
    on_pair "$pair" phone transfer '{"n":1}' >/dev/null || fail "$pair: first transfer"
    sx timeout 30 wcctl --pair "$pair" wait drained --timeout 20 >/dev/null || fail "$pair: first transfer not drained"
done
# Fill ci-5's disk (root may use it all), then give it a moment's worth of writes to fail on.
sx sh -c 'dd if=/dev/zero of=/var/lib/watchpair/ci-5/filler bs=64k 2>/dev/null; sync' || true
[ "$(sx df --output=avail /var/lib/watchpair/ci-5 | tail -n1 | tr -d ' ')" = 0 ] || fail "ci-5's disk is not full"
status=0
on_pair ci-5 phone transfer "{\"fill\":\"$(head -c 30000 /dev/zero | tr '\0' x)\"}" >/dev/null 2>&1 || status=$?
[ "$status" = 115 ] || fail "a transfer on ci-5's full disk exited $status, expected 115 (7015 insufficientSpace)"
# The others, on the host's disk, are untouched.
on_pair ci-6 phone transfer '{"n":2}' >/dev/null || fail "ci-6 transfer while ci-5's disk is full"
sx timeout 30 wcctl --pair ci-6 wait drained --timeout 20 >/dev/null || fail "ci-6 not drained"
phone transfer '{"n":2}' >/dev/null || fail "default pair transfer while ci-5's disk is full"
wait_for 20 phone drained
[ "$(pair_received_ns ci-6 | tr '\n' ' ')" = "1 2 " ] || fail "ci-6's watch did not receive 1 2"
expect_unit phoned@ci-6.service active
echo "a full disk fails its own pair (7015) and no other"
