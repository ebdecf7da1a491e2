#!/bin/bash
# Becomes PID 1 of a WatchPair test sandbox: builds a private root and execs systemd in it.
#
# Run only by sandbox.sh, as the child of
#   unshare --pid --fork --mount --propagation private --uts --ipc --net --cgroup pid1.sh STATE
# so every mount below is private to the sandbox's mount namespace.
#
# Protection of the host, in layers:
#  1. The root is an overlay: the host's / read-only below, a tmpfs above. Whatever runs inside
#     (a unit, install.sh, a stray `rm`) writes to the tmpfs; the host's files are never changed.
#     After pivot_root the host's tree is unmounted from the sandbox altogether.
#  2. /tmp, /var/tmp, /run and /dev are fresh tmpfs; /proc/sys, /proc/sysrq-trigger and /sys are
#     read-only; cgroups are a private cgroup2 subtree (cgroup namespace).
#  3. Units that touch kernel or host state are masked (masks.list) and all generators are masked.
#  4. systemd runs without the capabilities to load modules, set the clock, or do raw I/O.
# The only host directory the sandbox can write is STATE/shared (bind-mounted at the same path).
set -euo pipefail

state=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$state/root

[ "$$" = 1 ] || { echo "pid1.sh: must run as PID 1 of a new PID namespace" >&2; exit 1; }

# 1. Overlay root: lower = host /, upper = tmpfs.
mount -t tmpfs -o mode=0700,size=2g wp-layers "$state/layers"
mkdir "$state/layers/upper" "$state/layers/work"
mount -t overlay wp-root -o "lowerdir=/,upperdir=$state/layers/upper,workdir=$state/layers/work" "$root"

# 2. API file systems and scratch space.
mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
for ro in sys sysrq-trigger; do
    [ -e "$root/proc/$ro" ] || continue
    mount --bind "$root/proc/$ro" "$root/proc/$ro"
    mount -o remount,bind,ro "$root/proc/$ro"
done
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$root/sys"
mount -t cgroup2 -o nosuid,nodev,noexec cgroup2 "$root/sys/fs/cgroup"

mount -t tmpfs -o mode=0755,nosuid,size=16m dev "$root/dev"
for node in null zero full random urandom tty; do
    touch "$root/dev/$node"
    mount --bind "/dev/$node" "$root/dev/$node"
done
mkdir "$root/dev/pts" "$root/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666,mode=0620,nosuid,noexec devpts "$root/dev/pts"
mount -t tmpfs -o mode=1777,nosuid,nodev,size=64m shm "$root/dev/shm"
ln -s pts/ptmx "$root/dev/ptmx"
ln -s /proc/self/fd "$root/dev/fd"
ln -s /proc/self/fd/0 "$root/dev/stdin"
ln -s /proc/self/fd/1 "$root/dev/stdout"
ln -s /proc/self/fd/2 "$root/dev/stderr"

mount -t tmpfs -o mode=0755,nosuid,nodev,size=1g run "$root/run"
mount -t tmpfs -o mode=1777,nosuid,nodev,size=256m tmp "$root/tmp"
mount -t tmpfs -o mode=1777,nosuid,nodev,size=256m vartmp "$root/var/tmp"

# The one writable window to the host, at the same path inside as outside.
mkdir -p "$root$state/shared"
mount --bind "$state/shared" "$root$state/shared"

# 3. Runtime configuration of the sandbox's systemd, all in its private /run.
units=$root/run/systemd/system
mkdir -p "$units" "$root/run/systemd/system-generators" "$root/run/systemd/journald.conf.d" \
    "$root/run/systemd/system.conf.d"
grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$here/masks.list" | while read -r unit; do
    ln -s /dev/null "$units/$unit"
done
for dir in /etc/systemd/system-generators /usr/local/lib/systemd/system-generators \
    /lib/systemd/system-generators /usr/lib/systemd/system-generators; do
    [ -d "$dir" ] || continue
    for generator in "$dir"/*; do
        [ -e "$generator" ] || continue
        ln -sfn /dev/null "$root/run/systemd/system-generators/${generator##*/}"
    done
done
cat > "$root/run/systemd/journald.conf.d/sandbox.conf" <<'EOF'
# Volatile journal in the sandbox's /run, large enough to keep a whole test run; no rate limit
# (tests count every event).
[Journal]
Storage=volatile
RateLimitIntervalSec=0
RateLimitBurst=0
RuntimeMaxUse=512M
ForwardToConsole=no
ForwardToWall=no
EOF
cat > "$root/run/systemd/system.conf.d/sandbox.conf" <<'EOF'
[Manager]
ShowStatus=no
DefaultTimeoutStartSec=30s
DefaultTimeoutStopSec=10s
EOF
cat > "$units/watchpair-sandbox.target" <<'EOF'
[Unit]
Description=WatchPair test sandbox
Requires=systemd-journald.socket systemd-journald-dev-log.socket
Wants=systemd-journald.service
After=systemd-journald.socket systemd-journald-dev-log.socket systemd-journald.service
AllowIsolate=yes
EOF

# 4. Switch root and become systemd.
hostname watchpair-sandbox
cd "$root"
mkdir .wp-oldroot
pivot_root . .wp-oldroot
cd /
umount -l /.wp-oldroot
rmdir /.wp-oldroot

export container=watchpair-sandbox
exec setpriv \
    --bounding-set -sys_module,-sys_time,-sys_rawio,-wake_alarm,-syslog,-mac_admin,-mac_override,-sys_pacct,-block_suspend,-audit_control,-audit_read \
    /lib/systemd/systemd --system --unit=watchpair-sandbox.target --log-target=journal-or-kmsg --log-level=info
