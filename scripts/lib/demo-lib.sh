# shellcheck shell=bash
# Helpers for scripts/demo.sh: run the two daemons in a temporary directory, show wcctl commands as a
# user would type them, and clean up whatever happens.
#
# Globals set by demo_setup: DEMO_DIR (the temporary directory), DEMO_BIN (the binaries), DEMO_PIDS
# (every background process started, for the EXIT trap). wcctl finds the control sockets through
# WCCTL_RUNTIME_DIR=$DEMO_DIR, so the commands shown are exactly what a user would type.

DEMO_PIDS=()

# section TITLE: a header between the demo's steps.
section() {
    if [ -t 1 ]; then printf '\n\033[1m== %s ==\033[0m\n' "$*"; else printf '\n== %s ==\n' "$*"; fi
}

# say TEXT: a line of explanation.
say() {
    printf '# %s\n' "$*"
}

# quote ARGS...: the arguments as a shell would need them (for display).
quote() {
    local out='' arg
    for arg in "$@"; do
        if [[ $arg =~ ^[A-Za-z0-9_./:=@%+,-]+$ ]]; then out+=" $arg"; else out+=" '${arg//\'/\'\\\'\'}'"; fi
    done
    printf '%s' "${out# }"
}

# shown CMD ARGS...: shows "$ CMD ARGS" as a user would type it and runs it (its stderr in line with its
# stdout); prints "(exit N)" when it fails. Returns its status.
shown() {
    printf '$ %s\n' "$(quote "$@")"
    local status=0
    "$@" 2>&1 || status=$?
    [ "$status" = 0 ] || printf '(exit %d)\n' "$status"
    return "$status"
}

# wc ARGS...: `shown wcctl ARGS`, with the wcctl of DEMO_BIN.
wc() {
    PATH="$DEMO_BIN:$PATH" shown wcctl "$@"
}

# demo_setup BIN_DIR: checks the binaries, makes the directory and both config files.
demo_setup() {
    DEMO_BIN=$(cd "$1" 2>/dev/null && pwd) || { echo "demo: no directory $1 (build first: swift build)" >&2; exit 1; }
    local name peer
    for name in phoned watchd wcctl; do
        [ -x "$DEMO_BIN/$name" ] || { echo "demo: $DEMO_BIN/$name is missing (build first: swift build)" >&2; exit 1; }
    done
    DEMO_DIR=$(mktemp -d /tmp/wp-demo.XXXXXX)
    export WCCTL_RUNTIME_DIR=$DEMO_DIR
    unset WCCTL_SIDE WCCTL_CONTROL
    for name in phoned watchd; do
        peer=$([ "$name" = phoned ] && echo watchd || echo phoned)
        cat >"$DEMO_DIR/$name.json" <<JSON
{"paths": {"link": "$DEMO_DIR/$name.sock", "peerLink": "$DEMO_DIR/$peer.sock",
           "control": "$DEMO_DIR/$name.ctl", "peerControl": "$DEMO_DIR/$peer.ctl",
           "state": "$DEMO_DIR/$name"},
 "log": {"destination": "stderr"},
 "backoff": {"initial": 0.05, "maximum": 0.5}}
JSON
    done
}

# demo_cleanup: the EXIT trap. Kills every process still running, removes the directory.
demo_cleanup() {
    local status=$? pid
    for pid in "${DEMO_PIDS[@]}"; do
        kill -KILL "$pid" 2>/dev/null || true
    done
    for pid in "${DEMO_PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    if [ "$status" != 0 ] && [ "$status" != 130 ] && [ -n "${DEMO_DIR:-}" ]; then
        echo "demo: failed (status $status); the daemons' logs:" >&2
        tail -n 20 "$DEMO_DIR"/*.log >&2 2>/dev/null || true
    fi
    [ -z "${DEMO_DIR:-}" ] || rm -rf "$DEMO_DIR"
    exit "$status"
}

# daemon_pid NAME: the pid of the running daemon NAME (phoned or watchd), empty when none.
daemon_pid() {
    cat "$DEMO_DIR/$1.pid" 2>/dev/null || true
}

# start_daemon NAME: starts phoned or watchd (stderr to $DEMO_DIR/NAME.log) and waits until it is up
# (`wcctl wait ready`: the daemon answers once its session is activated; nothing polls).
start_daemon() {
    local name=$1 side
    side=$([ "$name" = phoned ] && echo phone || echo watch)
    "$DEMO_BIN/$name" --config "$DEMO_DIR/$name.json" >>"$DEMO_DIR/$name.log" 2>&1 &
    DEMO_PIDS+=($!)
    echo $! >"$DEMO_DIR/$name.pid"
    if "$DEMO_BIN/wcctl" --side "$side" wait ready --timeout 20; then
        printf '%s started (pid %s)\n' "$name" "$(daemon_pid "$name")"
        return 0
    fi
    echo "demo: $name did not become ready:" >&2
    tail "$DEMO_DIR/$name.log" >&2
    return 1
}

# stop_daemon NAME: SIGTERM (what `systemctl stop NAME.service` sends), waits for the exit, reports it.
stop_daemon() {
    local name=$1 pid status=0
    pid=$(daemon_pid "$name")
    [ -n "$pid" ] || return 0
    printf '$ kill -TERM %s    # stop %s\n' "$pid" "$name"
    kill -TERM "$pid"
    wait "$pid" || status=$?
    rm -f "$DEMO_DIR/$name.pid"
    printf '%s stopped (exit %d)\n' "$name" "$status"
}

# start_app SIDE ARGS...: a background `wcctl --side SIDE ARGS` acting as that side's app; its output
# goes to $DEMO_DIR/SIDE-app.out. Shown as the command a user would put in the background.
start_app() {
    local side=$1
    shift
    printf '$ wcctl --side %s %s > %s-app.out &\n' "$side" "$(quote "$@")" "$side"
    "$DEMO_BIN/wcctl" --side "$side" "$@" >"$DEMO_DIR/$side-app.out" 2>&1 &
    DEMO_PIDS+=($!)
    echo $! >"$DEMO_DIR/$side-app.pid"
}

# stop_app SIDE: interrupts the background app (it exits 0 on SIGINT) and shows what it printed.
stop_app() {
    local side=$1 pid
    pid=$(cat "$DEMO_DIR/$side-app.pid")
    kill -INT "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    show_app "$side"
}

# show_app SIDE: what the background app printed so far.
show_app() {
    printf '# the %s app printed:\n' "$1"
    sed 's/^/  /' "$DEMO_DIR/$1-app.out"
}

# wait_for SIDE CONDITION: shows and runs `wcctl [--side SIDE] wait CONDITION --timeout 20`.
wait_for() {
    local side=$1 condition=$2
    if [ "$side" = phone ]; then wc wait "$condition" --timeout 20; else wc --side "$side" wait "$condition" --timeout 20; fi
}
