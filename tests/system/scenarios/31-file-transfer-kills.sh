# A 200 MiB file from the phone while `systemctl kill -s KILL` hits watchd twice mid-transfer (at 30% and
# at 60% of the bytes it acknowledged): systemd restarts it, the file resumes from what watchd held
# durably, and it arrives once in watchd's files/ directory with an equal checksum. The bytes phoned
# wrote in all (its /proc/PID/io, less the spool copy) are under 1.5× the file: resumed, not restarted.
# WP_FILE_MIB changes the size.
# timeout: 150
. "$WP_REPO/tests/system/lib.sh"
mib=${WP_FILE_MIB:-200}
size=$((mib << 20))
reset_pair
sx systemctl start phoned.service watchd.service
wait_unit phoned.service active
wait_unit watchd.service active
wait_for 20 phone reachable
journal_mark

# The daemons run with PrivateTmp= and ProtectHome=: the file is where phoned can read it.
src=/srv/wp-files/big.bin
sx mkdir -p /srv/wp-files
sx chmod 0755 /srv/wp-files
sx sh -c "head -c $size /dev/urandom > $src && chmod 0644 $src" || fail "cannot make the file"
sum=$(sx sha256sum "$src" | cut -d' ' -f1)

# wchar: bytes phoned passed to write-like calls (its spool copy, its link, its store, its journal).
wchar() { sx cat "/proc/$(main_pid phoned.service)/io" | sed -n 's/^wchar: //p'; }
# acked: the bytes watchd acknowledged of the outstanding file (empty when none is outstanding).
acked() {
    sx wcctl --side phone --json files 2>/dev/null | $PY -c '
import json, sys
for line in sys.stdin:
    outgoing = json.loads(line).get("outgoing")
    if outgoing:
        print(outgoing["acknowledged"])
        break'
}
acked_ge() { [ "$(acked)" -ge "$1" ] 2>/dev/null; }

phoned_pid=$(main_pid phoned.service)
before=$(wchar)
started=$SECONDS
id=$(phone transfer-file "$src") || fail "transfer-file"
note "queued $id ($mib MiB) in $((SECONDS - started)) s"
# restarted PID: watchd runs again, as another process than PID. (Not NRestarts: phoned's reconnect may
# start it through watchd.socket before Restart= does, which counts as a fresh start.)
restarted() {
    local now
    now=$(main_pid watchd.service)
    [ -n "$now" ] && [ "$now" != 0 ] && [ "$now" != "$1" ]
}
for percent in 30 60; do
    wait_until 60 "watchd to acknowledge $percent% of the file" acked_ge $((size / 100 * percent))
    pid=$(main_pid watchd.service)
    sx systemctl kill -s KILL watchd.service
    note "killed watchd at $(( $(acked) * 100 / size ))% acknowledged"
    wait_until 15 "watchd to run again" restarted "$pid"
    wait_unit watchd.service active
done
wait_event 90 WC_EVENT=fileReceived WC_ROLE=watch
wait_event 20 WC_EVENT=fileFinished WC_ROLE=phone
note "delivered in $((SECONDS - started)) s"
[ "$(main_pid phoned.service)" = "$phoned_pid" ] || fail "phoned restarted: its byte count is lost"
sent=$(( $(wchar) - before - size ))

landed=/var/lib/watchpair/watchd/files/big.bin
wait_until 10 "the file in watchd's files/ directory" sx test -f "$landed"
[ "$(sx sha256sum "$landed" | cut -d' ' -f1)" = "$sum" ] || fail "checksum differs"
[ "$(count_events WC_EVENT=fileReceived WC_ROLE=watch)" = 1 ] || fail "received more than once"
[ "$(sx ls /var/lib/watchpair/watchd/files | wc -l)" = 1 ] || fail "more than one file landed"
[ -z "$(acked)" ] || fail "still outstanding at the phone"
note "phoned wrote $sent bytes to send $size ($((sent * 100 / size))%)"
[ "$sent" -ge "$size" ] || fail "phoned wrote $sent bytes, less than the file: the count is wrong"
[ "$sent" -lt $((size * 3 / 2)) ] || fail "phoned wrote $sent bytes for a file of $size: restarted, not resumed"
sx rm -rf /srv/wp-files
echo "$mib MiB, watchd killed twice, arrived once, checksum equal, $((sent * 100 / size))% of the file sent"
