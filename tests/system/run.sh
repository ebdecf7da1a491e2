#!/bin/bash
# WatchPair system tests: the real daemons under a real (private) systemd.
#
# usage: tests/system/run.sh BIN_DIR [--only REGEX] [--keep] [--verbose]
#        tests/system/run.sh --sandbox-only [--only REGEX]
#   BIN_DIR         holds phoned, watchd and wcctl (e.g. .build/debug)
#   --sandbox-only  only the unit-file checks and the sandbox self-tests (no daemons needed)
#   --only REGEX    only scenarios whose name matches
#   --keep          keep the sandbox's state directory (/tmp/wp-sandbox.*: console.log, shared/)
#   --verbose       show every scenario's output, also when it passes
#
# 1. static/*.sh run on the host: unit files verify, security exposure, catalog, no contract citations,
#    every relative link of the docs leads to a file and heading (doc-links.sh).
# 2. ONE sandbox is booted (scripts/sandbox/sandbox.sh), WatchPair is installed into it with
#    scripts/install.sh, test timings are set with runtime drop-ins, and each scenarios/*.sh runs
#    in turn, from a clean pair, under a time limit.
# 3. The sandbox is powered off (always, also on failure or Ctrl-C) and the host is checked untouched
#    (what the sandbox writes, see host_snapshot; other programs' changes to the host do not count).
# Prints `ok - NAME` / `not ok - NAME` (with the scenario's log) and ends with `N passed, M failed`.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin_dir=
only=.
sandbox_only=no
verbose=no
while [ $# -gt 0 ]; do
    case $1 in
    --only) only=${2:?}; shift 2 ;;
    --keep) export SANDBOX_KEEP=1; shift ;;
    --verbose) verbose=yes; shift ;;
    --sandbox-only) sandbox_only=yes; shift ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) bin_dir=$(cd "$1" && pwd) || exit 2; shift ;;
    esac
done
if [ $sandbox_only = no ]; then
    [ -n "$bin_dir" ] || { echo "usage: $0 BIN_DIR | --sandbox-only" >&2; exit 2; }
    for binary in phoned watchd wcctl; do
        [ -x "$bin_dir/$binary" ] || { echo "run.sh: $bin_dir/$binary missing" >&2; exit 2; }
    done
fi
[ "$(id -u)" = 0 ] || { echo "run.sh: must run as root (it boots a private systemd)" >&2; exit 2; }

. "$repo/scripts/sandbox/sandbox.sh"
passed=0
failed=0
started=$SECONDS

report() { # NAME STATUS LOG
    if [ "$2" = 0 ]; then
        echo "ok - $1"
        [ $verbose = yes ] && [ -s "$3" ] && sed 's/^/#   /' "$3"
        passed=$((passed + 1))
    else
        echo "not ok - $1"
        [ "$2" = 124 ] && echo "#   timed out"
        [ -s "$3" ] && sed 's/^/#   /' "$3" | tail -n 40
        failed=$((failed + 1))
    fi
}

# run_limited SECONDS LOG CMD...: runs CMD under `timeout` in the background and waits for it, so that
# a signal to run.sh is handled at once (bash runs traps only between foreground commands).
child=
run_limited() {
    local seconds=$1 log=$2
    shift 2
    timeout -k 5 "$seconds" "$@" >"$log" 2>&1 &
    child=$!
    wait "$child"
    local status=$?
    child=
    return $status
}
on_signal() {
    [ -n "$child" ] && kill -TERM "$child" 2>/dev/null && wait "$child" 2>/dev/null
    echo "not ok - interrupted"
    failed=$((failed + 1))
    exit 130
}

# The scenario's own limit: a `# timeout: N` line, else 60 s.
limit_of() { sed -n 's/^# timeout: \([0-9]*\)$/\1/p' "$1" | head -n1 | grep . || echo 60; }

finish() {
    sandbox_shutdown
    # Nothing the sandbox writes reached the host: the canary in /tmp survives, and WatchPair's paths
    # on the host are as before (other programs may change the host meanwhile; that is not a leak).
    local log=$logs/host-untouched.log
    {
        [ -e "$canary" ] || echo "canary $canary is gone: something cleaned /tmp"
        host_snapshot | diff "$snapshot" - || echo "paths the sandbox writes changed on the host (diff above)"
    } >"$log" 2>&1
    [ -s "$log" ]
    report host-untouched $((1 - $?)) "$log"
    rm -f "$canary" "$snapshot"
    rm -rf "$logs"
    echo "# $((SECONDS - started)) s"
    echo "$passed passed, $failed failed"
    [ $failed = 0 ]
}
# What the sandbox could touch, looked at where a leak would put it on the host: every file, directory,
# socket or unit link named after WatchPair under /etc, /usr/local, /var and /run (what install.sh, the
# units, the daemons and the scenarios create: binaries, units and their .wants links, sysusers and
# tmpfiles entries, catalog, config, state, sockets, wp-test-* units), the root's wp-* probe files,
# the accounts sysusers adds, and the catalog database `journalctl --update-catalog` rewrites.
# Anything else on the host belongs to other programs, which may change it during a run (/run/mount,
# /run/systemd/... appear and go); a whole-directory snapshot would blame the sandbox for them.
host_snapshot() {
    {
        find / -maxdepth 1 -name 'wp-*'
        find /etc /usr/local /var /run -xdev \( -path /run/user -o -path /proc \) -prune -o \
            \( -iname '*watchpair*' -o -name wcctl -o -name 'wp-test-*' -o -name wp-probe \
            -o -name phoned -o -name 'phoned.*' -o -name 'phoned@*' -o -name watchd -o -name 'watchd.*' \
            -o -name 'watchd@*' \) -print
        grep -h '^watchpair:' /etc/passwd /etc/group /etc/shadow /etc/gshadow
        echo "catalog entries naming WatchPair: $(grep -a -c -i watchpair /var/lib/systemd/catalog/database)"
    } 2>/dev/null | sort
}

logs=$(mktemp -d /tmp/wp-systest-logs.XXXXXX)
canary=$(mktemp /tmp/wp-canary.XXXXXX)
snapshot=$(mktemp /tmp/wp-snapshot.XXXXXX)
host_snapshot >"$snapshot"
trap 'finish; exit $?' EXIT
trap on_signal INT TERM

# 1. Static checks on the host.
export WP_REPO=$repo
for test in "$here"/static/*.sh; do
    name=$(basename "$test" .sh)
    [[ $name =~ $only ]] || continue
    run_limited "$(limit_of "$test")" "$logs/$name.log" bash "$test"
    report "$name" $? "$logs/$name.log"
done

# 2. One sandbox for every scenario.
boot_log=$logs/boot.log
if ! sandbox_boot 2>"$boot_log"; then
    report sandbox-boot 1 "$boot_log"
    exit 1
fi
report sandbox-boot 0 "$boot_log"
export SANDBOX_PID1 WP_SHARED=$SANDBOX_SHARED

# The sandbox hides the host's /tmp, so everything it needs is copied into the shared directory.
sandbox_copy_sources "$repo"

if [ $sandbox_only = no ]; then
    install_log=$logs/install.log
    {
        sandbox_install "$bin_dir" &&
            sandbox_exec bash "$WP_SHARED/src/tests/system/test-dropins.sh"
    } >"$install_log" 2>&1
    status=$?
    report install $status "$install_log"
    [ $status = 0 ] || exit 1
fi

for test in "$here"/scenarios/*.sh; do
    name=$(basename "$test" .sh)
    name=${name#[0-9][0-9]-}
    [[ $name =~ $only ]] || continue
    [ $sandbox_only = yes ] && [[ $name != sandbox-* ]] && continue
    run_limited "$(limit_of "$test")" "$logs/$name.log" bash "$test"
    status=$?
    # Leave nothing behind for the next scenario: transient test units (proxies), failed states.
    sandbox_exec systemctl stop 'wp-test-*' >/dev/null 2>&1
    sandbox_exec systemctl reset-failed >/dev/null 2>&1
    report "$name" $status "$logs/$name.log"
done
