#!/bin/bash
# A private systemd, booted as PID 1 in new namespaces, for WatchPair's system tests.
#
# As a library (bash):            . scripts/sandbox/sandbox.sh
#   sandbox_boot                  boot; sets SANDBOX_STATE, SANDBOX_SHARED, SANDBOX_PID1
#   sandbox_exec CMD...           run CMD inside (systemctl, journalctl, wcctl, socat...)
#   sandbox_shutdown              power off, reap within a bounded time, remove what the boot created
#   sandbox_copy_sources REPO     copy what install.sh and the tests need to SANDBOX_SHARED/src
#   sandbox_install BIN_DIR       copy the binaries to SANDBOX_SHARED/bin and run install.sh inside
# Always pair sandbox_boot with `trap sandbox_shutdown EXIT`.
#
# As a command:
#   sandbox.sh shell              boot, open a shell inside, power off when it exits
#   sandbox.sh run CMD...         boot, run CMD inside, power off; exits with CMD's status
#
# Needs root, util-linux (unshare, nsenter, setpriv, pivot_root), overlayfs and cgroup2.
# See pid1.sh for how the host is protected, masks.list for the masked units, docs/Systemd.md.

SANDBOX_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SANDBOX_BOOT_TIMEOUT=${SANDBOX_BOOT_TIMEOUT:-60}
SANDBOX_STOP_TIMEOUT=${SANDBOX_STOP_TIMEOUT:-20}
SANDBOX_STATE=
SANDBOX_SHARED=
SANDBOX_PID1=
SANDBOX_UNSHARE_PID=
SANDBOX_JOB=
SANDBOX_CGROUP=

sandbox_log() { echo "sandbox: $*" >&2; }

# The cgroup2 directory of this process on the host (hybrid hosts mount cgroup2 at .../unified).
sandbox_host_cgroup2() {
    local mnt rel
    mnt=$(findmnt -n -t cgroup2 -o TARGET | head -n1)
    [ -n "$mnt" ] || return 1
    rel=$(sed -n 's/^0:://p' /proc/self/cgroup)
    echo "$mnt${rel%/}"
}

# Boots the sandbox and waits until its systemd has finished starting up.
sandbox_boot() {
    [ "$(id -u)" = 0 ] || { sandbox_log "must run as root"; return 1; }
    SANDBOX_STATE=$(mktemp -d /tmp/wp-sandbox.XXXXXX) || return 1
    SANDBOX_SHARED=$SANDBOX_STATE/shared
    mkdir -p "$SANDBOX_STATE/root" "$SANDBOX_STATE/layers" "$SANDBOX_SHARED"

    # A cgroup of its own, which becomes the root of the sandbox's cgroup namespace.
    local parent
    parent=$(sandbox_host_cgroup2) || { sandbox_log "no cgroup2 mount"; return 1; }
    SANDBOX_CGROUP=$parent/${SANDBOX_STATE##*/}
    mkdir "$SANDBOX_CGROUP" || return 1

    # setsid: its own process group, so shutdown can kill everything the boot started.
    # --kill-child: if unshare dies, PID 1 dies, and with it every process of the namespace.
    # The inner shell records its pid (it becomes unshare by exec) whether or not setsid had to fork.
    setsid bash -c 'echo $$ > "$1/cgroup.procs" && echo $$ > "$2" && shift 2 && exec "$@"' _ \
        "$SANDBOX_CGROUP" "$SANDBOX_STATE/unshare.pid" \
        unshare --pid --fork --kill-child=SIGKILL --mount --propagation private --uts --ipc --net --cgroup \
        "$SANDBOX_HERE/pid1.sh" "$SANDBOX_STATE" \
        </dev/null >"$SANDBOX_STATE/console.log" 2>&1 &
    SANDBOX_JOB=$!

    local deadline=$((SECONDS + SANDBOX_BOOT_TIMEOUT)) state
    until SANDBOX_UNSHARE_PID=$(cat "$SANDBOX_STATE/unshare.pid" 2>/dev/null) && [ -n "$SANDBOX_UNSHARE_PID" ]; do
        if ! kill -0 "$SANDBOX_JOB" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
            sandbox_log "unshare did not start; console:"; cat "$SANDBOX_STATE/console.log" >&2
            return 1
        fi
        sleep 0.05
    done
    while [ -z "$SANDBOX_PID1" ]; do
        SANDBOX_PID1=$(cat "/proc/$SANDBOX_UNSHARE_PID/task/$SANDBOX_UNSHARE_PID/children" 2>/dev/null | awk '{print $1}')
        if ! kill -0 "$SANDBOX_UNSHARE_PID" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
            sandbox_log "PID 1 did not start; console:"; cat "$SANDBOX_STATE/console.log" >&2
            return 1
        fi
        [ -n "$SANDBOX_PID1" ] || sleep 0.05
    done
    # systemctl answers once /run/systemd/private exists; --wait then blocks until start-up is over.
    until state=$(sandbox_exec timeout 5 systemctl is-system-running --wait 2>/dev/null) &&
        [ "$state" = running ] || [ "$state" = degraded ]; do
        if ! kill -0 "$SANDBOX_UNSHARE_PID" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
            sandbox_log "boot did not finish within ${SANDBOX_BOOT_TIMEOUT}s (state: ${state:-none}); console:"
            tail -n 40 "$SANDBOX_STATE/console.log" >&2
            return 1
        fi
        sleep 0.1
    done
    if [ "$state" = degraded ]; then
        sandbox_log "booted degraded; failed units:"
        sandbox_exec systemctl --no-pager --failed >&2
    fi
}

# Runs a command inside every namespace of the sandbox, with its root and a clean environment.
sandbox_exec() {
    [ -n "$SANDBOX_PID1" ] || { sandbox_log "not booted"; return 1; }
    nsenter --target "$SANDBOX_PID1" --mount --uts --ipc --net --pid --cgroup --root --wd -- \
        env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 SYSTEMD_PAGER= SYSTEMD_COLORS=0 "$@"
}

# Copies the repository's scripts, units, docs, tests and Config to SANDBOX_SHARED/src: the sandbox hides
# the host's /tmp, and a build tree may live anywhere, so the sandbox sees only the shared directory.
sandbox_copy_sources() {
    local repo=$1
    mkdir -p "$SANDBOX_SHARED/src/Config" || return 1
    cp -r "$repo/scripts" "$repo/systemd" "$repo/docs" "$repo/tests" "$SANDBOX_SHARED/src/" || return 1
    cp -r "$repo/Config/." "$SANDBOX_SHARED/src/Config/"
}

# Installs WatchPair into the sandbox as a user would (scripts/install.sh, from the copied sources):
# copies phoned, watchd and wcctl from BIN_DIR to SANDBOX_SHARED/bin first.
sandbox_install() {
    local bin_dir=$1
    mkdir -p "$SANDBOX_SHARED/bin" || return 1
    cp "$bin_dir/phoned" "$bin_dir/watchd" "$bin_dir/wcctl" "$SANDBOX_SHARED/bin/" || return 1
    sandbox_exec "$SANDBOX_SHARED/src/scripts/install.sh" --bin-dir "$SANDBOX_SHARED/bin" --no-deps &&
        # Enabled socket units are installed apps (docs/Lifecycle.md); disabled or masked ones are not. Not started.
        sandbox_exec systemctl enable phoned.socket watchd.socket
}

# Powers the sandbox off, kills what is left after SANDBOX_STOP_TIMEOUT seconds, reaps it, and removes
# its cgroup and state directory. Safe to call twice and after a failed boot.
sandbox_shutdown() {
    local status=$?
    if [ -n "$SANDBOX_UNSHARE_PID" ] && kill -0 "$SANDBOX_UNSHARE_PID" 2>/dev/null; then
        # SIGRTMIN+4 asks systemd for poweroff.target, without needing its bus.
        [ -n "$SANDBOX_PID1" ] && kill -s RTMIN+4 "$SANDBOX_PID1" 2>/dev/null
        timeout "$SANDBOX_STOP_TIMEOUT" tail --pid="$SANDBOX_UNSHARE_PID" -f /dev/null ||
            sandbox_log "no clean poweroff within ${SANDBOX_STOP_TIMEOUT}s; killing"
        kill -KILL -- "-$SANDBOX_UNSHARE_PID" 2>/dev/null
    fi
    [ -n "$SANDBOX_JOB" ] && wait "$SANDBOX_JOB" 2>/dev/null
    if [ -n "$SANDBOX_CGROUP" ] && [ -d "$SANDBOX_CGROUP" ]; then
        # Processes of a dead namespace take a moment to be released; cgroups go depth first.
        local tries=50
        while [ -d "$SANDBOX_CGROUP" ] && [ $tries -gt 0 ]; do
            find "$SANDBOX_CGROUP" -depth -type d -exec rmdir {} + 2>/dev/null
            [ -d "$SANDBOX_CGROUP" ] && sleep 0.1
            tries=$((tries - 1))
        done
        [ -d "$SANDBOX_CGROUP" ] && sandbox_log "could not remove cgroup $SANDBOX_CGROUP"
    fi
    if [ -n "$SANDBOX_STATE" ] && [ -d "$SANDBOX_STATE" ] && [ -z "${SANDBOX_KEEP:-}" ]; then
        # Nothing is mounted on the host side: the overlay and tmpfs lived in the namespace only.
        if grep -q "^$SANDBOX_STATE" < <(findmnt -rn -o TARGET); then
            sandbox_log "$SANDBOX_STATE still has mounts; not removing it"
        else
            rm -rf "$SANDBOX_STATE"
        fi
    fi
    SANDBOX_UNSHARE_PID='' SANDBOX_JOB='' SANDBOX_PID1='' SANDBOX_CGROUP=''
    return $status
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -u
    command=${1:-}
    shift || true
    case $command in
    shell | run)
        trap sandbox_shutdown EXIT
        trap 'exit 130' INT TERM
        sandbox_boot || exit 1
        if [ "$command" = shell ]; then
            sandbox_exec bash -i
        else
            sandbox_exec "$@"
        fi
        ;;
    *)
        echo "usage: $0 shell | run CMD..." >&2
        exit 2
        ;;
    esac
fi
