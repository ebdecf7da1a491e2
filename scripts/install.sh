#!/bin/bash
# Installs WatchPair on a systemd host: binaries, units, the watchpair user, the socket directory,
# config, the journal catalog and the docs; then reloads systemd and rebuilds the catalog database.
#
# usage: scripts/install.sh [--bin-dir DIR] [--prefix DIR] [--enable] [--no-deps] [--uninstall]
#   --bin-dir DIR  where phoned, watchd and wcctl are (default: .build/release, else .build/debug)
#   --prefix DIR   install prefix (default /usr/local): DIR/bin, DIR/lib/systemd/system, ...
#   --enable       also `systemctl enable --now phoned.socket watchd.socket` (the apps become "installed")
#   --no-deps      do not apt-get install missing runtime packages (socat, libsystemd0)
#   --uninstall    stop and disable the units and remove what an install put in place
#                  (keeps /etc/watchpair and the state in /var/lib/watchpair)
#
# Layout (prefix /usr/local):
#   /usr/local/bin/{phoned,watchd,wcctl}
#   /usr/local/lib/systemd/system/{phoned,watchd}.{socket,service}
#   /usr/local/lib/sysusers.d/watchpair.conf     system user `watchpair`, shared by both daemons
#   /usr/local/lib/tmpfiles.d/watchpair.conf     /run/watchpair, owned by watchpair
#   /usr/local/lib/systemd/catalog/watchpair.catalog
#   /usr/local/share/doc/watchpair/*.md
#   /etc/watchpair/{phoned,watchd}.json           from Config/, never overwritten
# The state lives in /var/lib/watchpair/{phoned,watchd} (StateDirectory=, created by systemd).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
prefix=/usr/local
bin_dir=
enable=no
deps=yes
uninstall=no
daemons=(phoned watchd)
units=(phoned.socket phoned.service watchd.socket watchd.service)

die() { echo "install.sh: $*" >&2; exit 1; }
step() { echo "install.sh: $*"; }

while [ $# -gt 0 ]; do
    case $1 in
    --bin-dir) bin_dir=${2:?--bin-dir needs a DIR}; shift 2 ;;
    --bin-dir=*) bin_dir=${1#*=}; shift ;;
    --prefix) prefix=${2:?--prefix needs a DIR}; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --enable) enable=yes; shift ;;
    --no-deps) deps=no; shift ;;
    --uninstall) uninstall=yes; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
    esac
done
[ "$(id -u)" = 0 ] || die "must run as root"
prefix=${prefix%/}

# systemd is PID 1 here (not a container build or chroot): only then reload and start units.
systemd_running() { [ -d /run/systemd/system ]; }

unit_dir=$prefix/lib/systemd/system
catalog_dir=$prefix/lib/systemd/catalog
doc_dir=$prefix/share/doc/watchpair

if [ $uninstall = yes ]; then
    if systemd_running; then
        systemctl disable --now "${units[@]}" 2>/dev/null || true
    fi
    rm -f "${daemons[@]/#/$prefix/bin/}" "$prefix/bin/wcctl"
    rm -f "${units[@]/#/$unit_dir/}"
    rm -f "$prefix/lib/sysusers.d/watchpair.conf" "$prefix/lib/tmpfiles.d/watchpair.conf"
    rm -f "$catalog_dir/watchpair.catalog"
    rm -rf "$doc_dir"
    journalctl --update-catalog
    systemd_running && systemctl daemon-reload
    step "removed; kept /etc/watchpair, /var/lib/watchpair and the watchpair user"
    exit 0
fi

# Runtime packages: socat (fault-injection recipes) and libsystemd0 (the daemons link it).
if [ $deps = yes ]; then
    missing=()
    for package in socat libsystemd0; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        step "installing ${missing[*]}"
        command -v apt-get >/dev/null || die "missing ${missing[*]} and no apt-get; install them first"
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" ||
            { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; }
    fi
fi

if [ -z "$bin_dir" ]; then
    for candidate in "$repo/.build/release" "$repo/.build/debug"; do
        [ -x "$candidate/phoned" ] && { bin_dir=$candidate; break; }
    done
    [ -n "$bin_dir" ] || die "no binaries in $repo/.build/{release,debug}: run swift build -c release --static-swift-stdlib, or pass --bin-dir"
fi
for binary in phoned watchd wcctl; do
    [ -x "$bin_dir/$binary" ] || die "$bin_dir/$binary is missing or not executable"
done

step "binaries from $bin_dir to $prefix/bin"
install -d -m 0755 "$prefix/bin"
for binary in phoned watchd wcctl; do
    # Copy to a temporary name and rename: a running daemon keeps its old inode.
    install -m 0755 "$bin_dir/$binary" "$prefix/bin/.$binary.new"
    mv -f "$prefix/bin/.$binary.new" "$prefix/bin/$binary"
done

# The units, catalog and docs name /usr/local paths; a different prefix is substituted.
rewrite() { sed -e "s|/usr/local/|$prefix/|g" "$1"; }

step "units to $unit_dir"
install -d -m 0755 "$unit_dir"
for unit in "${units[@]}"; do
    rewrite "$repo/systemd/$unit" > "$unit_dir/$unit.new"
    chmod 0644 "$unit_dir/$unit.new"
    mv -f "$unit_dir/$unit.new" "$unit_dir/$unit"
done

step "user watchpair and /run/watchpair"
install -D -m 0644 "$repo/systemd/watchpair.sysusers.conf" "$prefix/lib/sysusers.d/watchpair.conf"
install -D -m 0644 "$repo/systemd/watchpair.tmpfiles.conf" "$prefix/lib/tmpfiles.d/watchpair.conf"
systemd-sysusers "$prefix/lib/sysusers.d/watchpair.conf"
systemd-tmpfiles --create "$prefix/lib/tmpfiles.d/watchpair.conf"

install -d -m 0755 /etc/watchpair
for daemon in "${daemons[@]}"; do
    source=$repo/Config/$daemon.json
    target=/etc/watchpair/$daemon.json
    if [ ! -f "$source" ]; then
        step "no Config/$daemon.json; $daemon runs with its defaults"
    elif [ -e "$target" ]; then
        # Never overwrite the admin's config; leave the new one beside it.
        cmp -s "$source" "$target" || { install -m 0644 "$source" "$target.dist"; step "kept $target, new default in $target.dist"; }
    else
        install -m 0644 "$source" "$target"
        step "config $target"
    fi
done

step "journal catalog to $catalog_dir"
install -d -m 0755 "$catalog_dir"
rewrite "$repo/systemd/watchpair.catalog" > "$catalog_dir/watchpair.catalog"
chmod 0644 "$catalog_dir/watchpair.catalog"
journalctl --update-catalog

install -d -m 0755 "$doc_dir"
for doc in Systemd.md FaultInjection.md Configuration.md ControlProtocol.md WireFormat.md Store.md; do
    [ -f "$repo/docs/$doc" ] && install -m 0644 "$repo/docs/$doc" "$doc_dir/$doc"
done

if systemd_running; then
    step "systemctl daemon-reload"
    systemctl daemon-reload
    if [ $enable = yes ]; then
        systemctl enable --now phoned.socket watchd.socket
        step "phoned.socket and watchd.socket listening; start the apps with: systemctl start phoned.service watchd.service"
    else
        step "done; enable with: systemctl enable --now phoned.socket watchd.socket"
    fi
else
    step "done; systemd is not running here, so nothing was reloaded or started"
fi
