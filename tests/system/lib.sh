# Helpers for system-test scenarios (sourced by each tests/system/scenarios/*.sh, run by run.sh).
#
# A scenario is a bash script that exits 0 when it passes; `fail` ends it with a reason. run.sh exports
# SANDBOX_PID1 (the booted sandbox), WP_REPO, WP_SHARED (host dir also visible inside at the same path)
# and runs each scenario under `timeout`, so every wait here also has its own bound.
# Assertions go through `systemctl show`/`is-active` and journald events matched on WC_* fields.

set -uo pipefail
# The system's python3, also on the host side: no version-manager shims (slow, and not everywhere).
PY=/usr/bin/python3
wp_pid1=${SANDBOX_PID1:?run by tests/system/run.sh}
. "$WP_REPO/scripts/sandbox/sandbox.sh"
SANDBOX_PID1=$wp_pid1

# Runs a command inside the sandbox.
sx() { sandbox_exec "$@"; }

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
note() { echo "# $*" >&2; }

# poll SECONDS CMD...: runs CMD every 0.1 s until it succeeds (status 0) or SECONDS pass (status 1).
poll() {
    local deadline=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.1
    done
}
# wait_until SECONDS DESCRIPTION CMD...: poll, and fail the scenario on timeout.
wait_until() {
    local seconds=$1 what=$2
    shift 2
    poll "$seconds" "$@" || fail "timed out after ${seconds}s waiting for: $what"
}

# unit_prop UNIT PROPERTY: one property, e.g. unit_prop watchd.service ActiveState.
unit_prop() { sx systemctl show -P "$2" "$1"; }
unit_is() { [ "$(unit_prop "$1" ActiveState)" = "$2" ]; }
# wait_unit UNIT STATE [SECONDS]: waits for ActiveState=STATE.
wait_unit() {
    poll "${3:-20}" unit_is "$1" "$2" ||
        fail "timed out after ${3:-20}s waiting for $1 to be $2 (it is $(unit_prop "$1" ActiveState))"
}
expect_unit() {
    local actual
    actual=$(unit_prop "$1" ActiveState)
    [ "$actual" = "$2" ] || fail "$1 is $actual, expected $2"
}
main_pid() { unit_prop "$1" MainPID; }

# Journal events of this scenario only: those after the entry that was last when journal_mark ran.
# (Filtered on __MONOTONIC_TIMESTAMP here: journalctl 252 returns nothing for --after-cursor together
# with field matches when the cursor's own entry does not match.)
journal_mark() {
    sx journalctl --sync
    WP_MARK=$(sx journalctl -n 1 -o json | $PY -c 'import json, sys; print(json.loads(sys.stdin.readline())["__MONOTONIC_TIMESTAMP"])')
    [ -n "$WP_MARK" ] || fail "no journal entry to mark"
}
# events MATCH...: JSON lines of matching events (journalctl matches: WC_EVENT=x WC_ROLE=phone).
events() {
    sx journalctl --sync
    sx journalctl --no-pager -o json "$@" | $PY -c '
import json, sys
mark = int(sys.argv[1])
for line in sys.stdin:
    if line.startswith("{") and int(json.loads(line)["__MONOTONIC_TIMESTAMP"]) > mark:
        sys.stdout.write(line)' "${WP_MARK:?journal_mark first}"
}
count_events() { events "$@" | grep -c '^{' || true; }
has_event() { [ "$(count_events "$@")" -gt 0 ]; }
# wait_event SECONDS MATCH...: waits until at least one matching event was logged.
wait_event() {
    local seconds=$1
    shift
    wait_until "$seconds" "journal event $*" has_event "$@"
}
# wait_events SECONDS N MATCH...: waits until at least N matching events were logged.
at_least_events() {
    local n=$1
    shift
    [ "$(count_events "$@")" -ge "$n" ]
}
wait_events() {
    local seconds=$1 n=$2
    shift 2
    wait_until "$seconds" "$n journal events $*" at_least_events "$n" "$@"
}
expect_no_event() {
    local n
    n=$(count_events "$@")
    [ "$n" = 0 ] || fail "expected no event $*, found $n"
}
# field NAME: the values of field NAME in JSON journal lines on stdin, one per line.
field() { $PY -c '
import json, sys
for line in sys.stdin:
    line = line.strip()
    if line.startswith("{"):
        value = json.loads(line).get(sys.argv[1])
        if value is not None:
            print(value)' "$1"; }

# wcctl inside the sandbox (at most 30 s): phone SUBCOMMAND... / watch SUBCOMMAND...
phone() { sx timeout 30 wcctl --side phone "$@"; }
watch() { sx timeout 30 wcctl --side watch "$@"; }

# expect_status N CMD...: runs CMD and checks its exit status.
expect_status() {
    local want=$1
    shift
    local got=0
    "$@" >/dev/null 2>&1 || got=$?
    [ "$got" = "$want" ] || fail "exit status $got from $*, expected $want"
}

# Starts from a known state: both services and sockets stopped, stores removed, failures reset.
reset_pair() {
    sx systemctl stop phoned.service watchd.service phoned.socket watchd.socket 2>/dev/null
    sx systemctl reset-failed 2>/dev/null
    sx rm -rf /var/lib/watchpair/phoned /var/lib/watchpair/watchd
    # Content announcements of the stores just removed (content outlives its sender: docs/Design.md).
    sx rm -f /run/watchpair/phoned.sock.pending /run/watchpair/watchd.sock.pending
}

# set_dropin FILE LINE...: a runtime drop-in (/run/systemd/system/UNIT.d/NAME.conf) with a [Service]
# section of LINEs, then daemon-reload; unset_dropin FILE removes it (and reloads).
set_dropin() {
    local file=$1
    shift
    sx mkdir -p "$(dirname "$file")"
    sx sh -c "printf '[Service]\n' > $file"
    local line
    for line in "$@"; do sx sh -c "printf '%s\n' '$line' >> $file"; done
    sx systemctl daemon-reload
}
unset_dropin() {
    sx rm -f "$1"
    sx systemctl daemon-reload
}

# wait_prop_ge UNIT PROPERTY N [SECONDS]: waits until a numeric property (NRestarts...) is at least N.
prop_ge() { [ "$(unit_prop "$1" "$2")" -ge "$3" ] 2>/dev/null; }
wait_prop_ge() {
    poll "${4:-20}" prop_ge "$1" "$2" "$3" && return
    unit_story "$1"
    fail "timed out after ${4:-20}s waiting for $1 $2 >= $3 (it is $(unit_prop "$1" "$2"))"
}
# unit_story UNIT: what became of UNIT, to stderr: systemd's own lines about it (starts, exits, scheduled
# restarts), each of its processes' launch and exit lines, then its state now, last, so a failed wait on a
# unit's state shows what the unit was doing instead (run.sh shows a log's last 40 lines).
unit_story() {
    sx journalctl --no-pager -o short-monotonic -u "$1" 2>/dev/null |
        grep -E 'systemd\[1\]|[Ll]aunch|exits after|stopped|ready' | tail -n 30 >&2 || true
    sx systemctl show -p ActiveState,SubState,Result,MainPID,NRestarts,ExecMainStatus "$1" >&2 || true
}

fixtures() { echo "$WP_SHARED/src/tests/system/fixtures"; }

# queue_transfers DAEMON FROM TO: queues userInfo {"n":FROM..TO} over one control connection; prints
# "<n> <seq> <transferId>" lines in seq order (the order they must be received in).
queue_transfers() { sx python3 "$(fixtures)/ctl.py" "$1" transfers "$2" "$3"; }

# received_ns SIDE: takes (and acknowledges) every userInfo transfer waiting for SIDE's app and prints
# their "n" values in the order received. (One `receive` returns a bounded batch: repeat until empty.)
received_ns() {
    local batch
    while batch=$(sx wcctl --side "$1" receive --channel userInfo) && [ -n "$batch" ]; do
        echo "$batch"
    done | $PY -c '
import json, sys
for line in sys.stdin:
    item = json.loads(line)
    print(item["userInfo"].get("n"))'
}

# json_get KEY: reads one JSON object on stdin and prints the value of KEY (JSON for non-strings).
json_get() { $PY -c '
import json, sys
value = json.load(sys.stdin)
for key in sys.argv[1].split("."):
    value = value[key]
print(value if isinstance(value, str) else json.dumps(value))' "$1"; }

# expect_sequence NAME EXPECTED_FILE ACTUAL_FILE: same lines in the same order (exactly once each).
expect_same_lines() {
    diff <(cat "$2") <(cat "$3") >/dev/null || {
        echo "expected ($2) vs received ($3):" >&2
        diff <(cat "$2") <(cat "$3") | head -20 >&2
        fail "$1: received sequence differs"
    }
}

# outstanding SIDE: the number of outstanding userInfo transfers of SIDE (wcctl status --json).
outstanding() { sx wcctl --side "$1" --json status | json_get outstandingTransfers; }
# wait_for SECONDS SIDE CONDITION: `wcctl wait CONDITION` on SIDE (ready, reachable, drained, idle); the
# daemon answers when it holds, so nothing polls. Fails the scenario at the timeout.
wait_for() {
    sx timeout $(($1 + 10)) wcctl --side "$2" wait "$3" --timeout "$1" ||
        fail "timed out after $1 s waiting for $2 to be $3"
}

# A scratch directory for this scenario on the host (removed by run.sh with the sandbox).
scratch() {
    WP_SCRATCH=$(mktemp -d "$WP_SHARED/scenario.XXXXXX")
    echo "$WP_SCRATCH"
}

# Fault-injection proxies (docs/FaultInjection.md). proxy_route makes phoned reach watchd through
# /run/watchpair/proxy-watchd.sock (a runtime drop-in sets WATCHPAIR_PATHS_PEER_LINK) and restarts
# nothing: start phoned after it. proxy_unroute undoes it; call it from an EXIT trap.
PROXY_SOCK=/run/watchpair/proxy-watchd.sock
proxy_route() {
    sx mkdir -p /run/systemd/system/phoned.service.d
    sx sh -c "printf '[Service]\nEnvironment=WATCHPAIR_PATHS_PEER_LINK=$PROXY_SOCK\n' > /run/systemd/system/phoned.service.d/60-proxy.conf"
    sx systemctl daemon-reload
}
proxy_unroute() {
    sx systemctl stop 'wp-test-*' 2>/dev/null
    sx systemctl stop phoned.service 2>/dev/null
    sx rm -f /run/systemd/system/phoned.service.d/60-proxy.conf "$PROXY_SOCK"
    sx systemctl daemon-reload
}
# proxy_start NAME SOCAT-ARG...: runs `socat SOCAT-ARG...` as the transient unit wp-test-NAME and
# waits for the proxy's socket. Stop with `systemctl stop` or kill with `systemctl kill -s KILL`.
proxy_start() {
    local name=$1
    shift
    sx rm -f "$PROXY_SOCK"
    sx systemd-run --quiet --unit="wp-test-$name" --collect socat "$@" || fail "systemd-run socat"
    wait_until 5 "proxy socket $PROXY_SOCK" sx test -S "$PROXY_SOCK"
}
# The listening half every proxy shares.
# shellcheck disable=SC2034 # used by the scenarios
PROXY_LISTEN="UNIX-LISTEN:$PROXY_SOCK,fork,unlink-early,mode=0666"
# shellcheck disable=SC2034
PROXY_TARGET="UNIX-CONNECT:/run/watchpair/watchd.sock"

# to_link SOCKET BYTES-COMMAND [HOLD]: writes what BYTES-COMMAND prints (a shell command, run inside
# the sandbox) into a daemon's link SOCKET, keeps the connection open HOLD seconds (default 1; 0 closes
# at once) unless the daemon closes it first, and prints the daemon's answer, one decoded frame a line.
to_link() {
    sx sh -c "{ $2; sleep ${3:-1}; } | timeout 15 socat -t 1 - UNIX-CONNECT:$1 | python3 $(fixtures)/wpframe.py decode"
}
# Frames for to_link come from `wcctl frame KIND …` (run inside); fixtures/wpframe.py is an
# independent encoder of the same format (docs/WireFormat.md) and decodes the daemon's answers.

# expect_clean_stop UNIT...: `systemctl stop` ends each service by SIGTERM (graceful shutdown), not
# by the SIGKILL that follows TimeoutStopSec= (Result=timeout).
expect_clean_stop() {
    local unit
    for unit in "$@"; do
        sx systemctl stop "$unit" 2>/dev/null
        [ "$(unit_prop "$unit" Result)" = success ] ||
            fail "$unit did not stop on SIGTERM (Result=$(unit_prop "$unit" Result))"
    done
}

# start_app DAEMON ROLE: `systemctl start DAEMON.service` and wait for its launch event. When the peer
# has content pending, its connection can reach the socket before the service starts, and the daemon
# then counts the start as a background launch (it will idle-exit): prints the mode it got.
start_app() {
    sx systemctl start "$1.service"
    wait_unit "$1.service" active
    wait_until 10 "a launch event of $2" has_event WC_EVENT=foregroundLaunch WC_EVENT=backgroundLaunch WC_ROLE="$2"
    if has_event WC_EVENT=foregroundLaunch WC_ROLE="$2"; then echo foreground; else echo background; fi
}
# launch_mode PID: foreground or background, from that process's launch event (waits for it).
launch_event_of() { sx journalctl --sync && sx journalctl --no-pager -o json _PID="$1" WC_EVENT=foregroundLaunch WC_EVENT=backgroundLaunch | grep . >/dev/null; }
launch_mode() {
    wait_until 10 "a launch event from pid $1" launch_event_of "$1"
    sx journalctl --no-pager -o json _PID="$1" WC_EVENT=foregroundLaunch | grep . >/dev/null && echo foreground || echo background
}
# ensure_foreground DAEMON: makes sure DAEMON runs in the foreground now; after a background launch it
# waits for the idle exit and starts it again (with nothing pending, that start is a foreground one).
ensure_foreground() {
    local pid
    pid=$(main_pid "$1.service")
    if [ "$pid" != 0 ] && [ "$(launch_mode "$pid")" = foreground ]; then return 0; fi
    wait_unit "$1.service" inactive 20
    sx systemctl start "$1.service"
    wait_unit "$1.service" active
    [ "$(launch_mode "$(main_pid "$1.service")")" = foreground ] || fail "$1 did not start in the foreground"
}
