#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, and shows both apps' lifecycle the way
# users drive it, under systemd.
#
# usage: scripts/run.sh [--plain]
#   (default)  boots a private systemd as PID 1 in new namespaces (scripts/sandbox/, needs root),
#              installs WatchPair into it with scripts/install.sh and runs scripts/lifecycle-tour.sh:
#              systemctl start/stop, a background launch by socket activation, a socat fault, the
#              session's journal, and its `wcctl timeline` written to .build/run/session.html.
#              The host is not changed; the sandbox is powered off and removed at the end.
#   --plain    the tour of the three channels with the apps as plain processes (scripts/demo.sh),
#              for machines where root or new namespaces are not available
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

mode=systemd
case ${1:-} in
"") ;;
--plain) mode=plain ;;
-h | --help) sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
*) echo "run.sh: unknown argument '$1' (usage: scripts/run.sh [--plain])" >&2; exit 2 ;;
esac
if [ $mode = systemd ] && [ "$(id -u)" != 0 ]; then
    echo "run.sh: the systemd tour boots a private systemd in new namespaces and needs root:" >&2
    echo "        run 'sudo bash scripts/run.sh', or 'bash scripts/run.sh --plain' for the apps as plain processes" >&2
    exit 1
fi

bash scripts/deps.sh
echo "== building phoned, watchd and wcctl"
swift build --product phoned
swift build --product watchd
swift build --product wcctl
bin=$(swift build --show-bin-path)
[ $mode = systemd ] || exec bash scripts/demo.sh "$bin"

. scripts/sandbox/sandbox.sh
# Without errexit: the shutdown tries every step (some fail harmlessly once the sandbox is gone).
trap 'set +e; sandbox_shutdown' EXIT
trap 'exit 130' INT TERM
echo "== booting a private systemd (PID 1 in new namespaces; the host is not changed)"
if ! sandbox_boot; then
    echo "run.sh: the sandbox did not boot; 'bash scripts/run.sh --plain' runs the apps without systemd" >&2
    exit 1
fi
echo "== installing WatchPair into it (scripts/install.sh)"
sandbox_copy_sources "$repo"
sandbox_install "$bin" >"$SANDBOX_SHARED/install.log" 2>&1 || { cat "$SANDBOX_SHARED/install.log" >&2; exit 1; }
sandbox_exec bash "$SANDBOX_SHARED/src/scripts/lifecycle-tour.sh" "$SANDBOX_SHARED/out"

mkdir -p .build/run
cp "$SANDBOX_SHARED/out/session.html" .build/run/session.html
echo
echo "The session's timeline: $repo/.build/run/session.html (one self-contained page; open it in a browser)."
echo "== powering the sandbox off"
