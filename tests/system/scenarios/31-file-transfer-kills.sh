# A 200 MiB file from the phone with `kill -9` of the receiver (watchd) at 30% and of the sender
# (phoned) at 60% of the bytes watchd acknowledged: systemd restarts each, the file resumes from what
# watchd held durably, and it arrives once in watchd's files/ directory with an equal checksum. The
# bytes phoned wrote in all (/proc/PID/io of both its processes, less the spool copy) are under 1.5×
# the file: resumed, not restarted. WP_FILE_MIB changes the size.
# timeout: 180
. "$WP_REPO/tests/system/lib.sh"
mib=${WP_FILE_MIB:-200}
size=$((mib << 20))
# phoned always starts in the foreground here: restarted after its kill, a connection from watchd
# could otherwise make it a background launch, which exits when idle and takes its byte count along.
dropin=/run/systemd/system/phoned.service.d/61-foreground.conf
cleanup() {
    # Never leave a daemon stopped (SIGSTOP) for the next scenario.
    sx systemctl kill -s CONT phoned.service watchd.service 2>/dev/null
    unset_dropin "$dropin"
    sx rm -rf /srv/wp-files
}
trap cleanup EXIT
set_dropin "$dropin" Environment=WATCHPAIR_LAUNCH=foreground
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

# wchar PID: bytes the process passed to write-like calls since it started (its spool copy, its link,
# its store, its journal).
wchar() { sx cat "/proc/$1/io" | sed -n 's/^wchar: //p'; }
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
# restarted UNIT PID: UNIT runs again, as another process than PID. (Not NRestarts: a peer's connect
# may start it through its socket before Restart= does, which counts as a fresh start.)
restarted() {
    local now
    now=$(main_pid "$1")
    [ -n "$now" ] && [ "$now" != 0 ] && [ "$now" != "$2" ]
}
# The file moves faster than a poll can watch (30% to done in a fraction of a second), so watchd, the
# receiver, runs in short bursts between looks and is stopped (SIGSTOP) otherwise: the file cannot pass
# the mark, or finish, unseen. Between the steps below watchd is stopped and phoned runs.
# burst SECONDS: watchd runs for SECONDS (0: just the time between two signals), then is stopped again.
burst() {
    sx sh -c "systemctl kill -s CONT watchd.service; sleep $1; systemctl kill -s STOP watchd.service"
}
# step_to PERCENT: lets watchd run in bursts until it acknowledged PERCENT of the file; a burst that moved
# nothing (a busy machine) is followed by a longer one.
step_to() {
    local target=$((size / 100 * $1)) deadline=$((SECONDS + 60)) now last=-1 pause
    while :; do
        now=$(acked)
        [ -n "$now" ] || fail "the file finished before watchd acknowledged $1% of it: a burst was too long"
        [ "$now" -lt "$target" ] || return 0
        [ $SECONDS -lt $deadline ] || fail "timed out after 60 s waiting for watchd to acknowledge $1% of the file"
        if [ "$now" = "$last" ]; then pause=0.05; else pause=0; fi
        last=$now
        burst $pause
    done
}
# kill_at PERCENT DAEMON: steps the file to PERCENT, then kill -9s DAEMON and waits for systemd to run it
# again, with the other daemon held so that nothing moves meanwhile; then watchd is stopped again.
kill_at() {
    step_to "$1"
    local pid at
    at=$(( $(acked) * 100 / size ))
    pid=$(main_pid "$2.service")
    if [ "$2" = phoned ]; then
        # Stopped first, so the count read is the last: a stopped process writes nothing more.
        sx systemctl kill -s STOP phoned.service
        written=$(( $(wchar "$pid") - before ))
        sx systemctl kill -s KILL phoned.service
    else
        sx systemctl kill -s STOP phoned.service
        sx systemctl kill -s KILL watchd.service
    fi
    wait_until 15 "$2 to run again" restarted "$2.service" "$pid"
    wait_unit "$2.service" active
    sx systemctl kill -s STOP watchd.service
    sx systemctl kill -s CONT phoned.service
    note "killed $2 at $at% of the file (at least $1%); it runs again"
}

first_phoned=$(main_pid phoned.service)
before=$(wchar "$first_phoned")
started=$SECONDS
sx systemctl kill -s STOP watchd.service
id=$(phone transfer-file "$src") || fail "transfer-file"
note "queued $id ($mib MiB) in $((SECONDS - started)) s"
kill_at 30 watchd
kill_at 60 phoned
sx systemctl kill -s CONT watchd.service
second_phoned=$(main_pid phoned.service)
wait_event 90 WC_EVENT=fileReceived WC_ROLE=watch
wait_event 20 WC_EVENT=fileFinished WC_ROLE=phone
note "delivered in $((SECONDS - started)) s"
[ "$(main_pid phoned.service)" = "$second_phoned" ] || fail "phoned restarted again: its byte count is lost"
# The second phoned's count starts at 0 with the process: everything it wrote is counted.
sent=$(( written + $(wchar "$second_phoned") - size ))

landed=/var/lib/watchpair/watchd/files/big.bin
wait_until 10 "the file in watchd's files/ directory" sx test -f "$landed"
[ "$(sx sha256sum "$landed" | cut -d' ' -f1)" = "$sum" ] || fail "checksum differs"
[ "$(count_events WC_EVENT=fileReceived WC_ROLE=watch)" = 1 ] || fail "received more than once"
[ "$(sx ls /var/lib/watchpair/watchd/files | wc -l)" = 1 ] || fail "more than one file landed"
[ -z "$(acked)" ] || fail "still outstanding at the phone"
note "phoned wrote $sent bytes to send $size ($((sent * 100 / size))%)"
[ "$sent" -ge "$size" ] || fail "phoned wrote $sent bytes, less than the file: the count is wrong"
[ "$sent" -lt $((size * 3 / 2)) ] || fail "phoned wrote $sent bytes for a file of $size: restarted, not resumed"
echo "$mib MiB, watchd killed at 30%, phoned at 60%: arrived once, checksum equal, $((sent * 100 / size))% of the file sent"
