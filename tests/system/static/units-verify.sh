# systemd-analyze verify accepts the four units without a single warning.
# They are checked installed in a scratch root (with the host's system units, so that targets
# resolve) and with placeholder binaries at the ExecStart= and ExecReload= paths.
set -uo pipefail
root=$(mktemp -d /tmp/wp-verify.XXXXXX)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/local/bin" "$root/bin" "$root/etc/systemd/system" "$root/usr/lib/systemd"
cp -a /lib/systemd/system "$root/usr/lib/systemd/"
for binary in usr/local/bin/phoned usr/local/bin/watchd bin/kill; do
    printf '#!/bin/sh\n' > "$root/$binary"
    chmod +x "$root/$binary"
done
cp "$WP_REPO"/systemd/*.socket "$WP_REPO"/systemd/*.service "$root/etc/systemd/system/"
out=$(systemd-analyze verify --root="$root" phoned.socket phoned.service watchd.socket watchd.service 2>&1)
status=$?
[ $status = 0 ] && [ -z "$out" ] || { echo "verify: status $status"; echo "$out"; exit 1; }

# The properties the design relies on.
for daemon in phoned watchd; do
    socket=$WP_REPO/systemd/$daemon.socket service=$WP_REPO/systemd/$daemon.service
    grep -qx "ListenStream=/run/watchpair/$daemon.sock" "$socket" || { echo "$daemon.socket: ListenStream"; exit 1; }
    grep -qx "FileDescriptorName=$daemon" "$socket" || { echo "$daemon.socket: FileDescriptorName"; exit 1; }
    grep -qx "Accept=no" "$socket" || { echo "$daemon.socket: Accept=no"; exit 1; }
    grep -qx "RemoveOnStop=yes" "$socket" || { echo "$daemon.socket: RemoveOnStop"; exit 1; }
    for line in Type=notify Restart=on-failure "StateDirectory=watchpair/$daemon" "ExecStart=/usr/local/bin/$daemon" \
        'ExecReload=/bin/kill -HUP $MAINPID'; do
        grep -qx "$line" "$service" || { echo "$daemon.service: missing $line"; exit 1; }
    done
    grep -q '^WatchdogSec=' "$service" || { echo "$daemon.service: no WatchdogSec"; exit 1; }
    # Sockets must never live in a RuntimeDirectory (deleted when the service stops).
    ! grep -q '^RuntimeDirectory=' "$service" || { echo "$daemon.service: RuntimeDirectory="; exit 1; }
done
echo "verified"
