# systemd-analyze verify accepts the four units, and an instance of each of the four template units
# (phoned@.socket/.service, watchd@.socket/.service), without a single warning.
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
out=$(systemd-analyze verify --root="$root" phoned.socket phoned.service watchd.socket watchd.service \
    phoned@ci-3.socket phoned@ci-3.service watchd@ci-3.socket watchd@ci-3.service 2>&1)
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

    # The template units: the same, in the pair's directories, with the instance passed as --pair.
    socket=$WP_REPO/systemd/$daemon@.socket service=$WP_REPO/systemd/$daemon@.service
    for line in "ListenStream=/run/watchpair/%i/$daemon.sock" "FileDescriptorName=$daemon" Accept=no RemoveOnStop=yes \
        "Service=$daemon@%i.service"; do
        grep -qx "$line" "$socket" || { echo "$daemon@.socket: missing $line"; exit 1; }
    done
    for line in Type=notify Restart=on-failure "StateDirectory=watchpair/%i/$daemon" "ExecStart=/usr/local/bin/$daemon --pair %i" \
        'ExecReload=/bin/kill -HUP $MAINPID' "Requires=$daemon@%i.socket" "RuntimeDirectory=watchpair/%i"; do
        grep -qx "$line" "$service" || { echo "$daemon@.service: missing $line"; exit 1; }
    done
    # The pair's directory holds its link sockets: the service must never delete it when it stops.
    grep -qx "RuntimeDirectoryPreserve=yes" "$service" || { echo "$daemon@.service: RuntimeDirectoryPreserve=yes"; exit 1; }
    # Everything else as in the default pair's unit (hardening, timeouts): only these lines differ.
    extra=$(diff <(grep -v '^#' "$WP_REPO/systemd/$daemon.service") <(grep -v '^#' "$service") | grep '^[<>]' |
        grep -v -e '^. Description=' -e '^. Requires=' -e '^. After=' -e '^. ExecStart=' -e '^. StateDirectory=' \
            -e '^. ReadWritePaths=/run/watchpair$' -e '^. RuntimeDirectory' -e '^. Also=')
    [ -z "$extra" ] || { echo "$daemon@.service differs from $daemon.service beyond the pair's names:"; echo "$extra"; exit 1; }
done
echo "verified"
