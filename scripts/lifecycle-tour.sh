#!/bin/bash
# The apps' lifecycle under systemd, shown step by step: the tour `bash scripts/run.sh` runs inside its
# private systemd. Also runs on any systemd host where scripts/install.sh has installed WatchPair.
#
# usage: scripts/lifecycle-tour.sh OUT_DIR      (as root; OUT_DIR receives session.html)
#
# Starts both apps with `systemctl start`, sends a message with a reply, stops the watch app with
# `systemctl stop`, lets a userInfo transfer launch it in the background through socket activation (it
# exits by itself after timeouts.idleExit), writes garbage into its link socket with socat (a rejected
# frame), then shows the session's events from journalctl and draws them with `wcctl timeline`.
# Everything it starts is stopped on exit, also on failure or Ctrl-C.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/scripts/lib/demo-lib.sh"

out=${1:?usage: $0 OUT_DIR}
mkdir -p "$out"
[ "$(id -u)" = 0 ] || { echo "lifecycle-tour: run as root (it starts and stops system units)" >&2; exit 1; }
DEMO_BIN=$(dirname "$(command -v wcctl)") || { echo "lifecycle-tour: wcctl is not installed (scripts/install.sh)" >&2; exit 1; }
DEMO_DIR=$out
unset WCCTL_RUNTIME_DIR WCCTL_SIDE WCCTL_CONTROL
units=(phoned.service watchd.service phoned.socket watchd.socket)
started=$(date +%s)

tour_cleanup() {
    local status=$? pid
    for pid in "${DEMO_PIDS[@]}"; do
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    systemctl stop "${units[@]}" 2>/dev/null || true
    exit "$status"
}
trap tour_cleanup EXIT
trap 'exit 130' INT TERM

# show_units WHO: the state of that app's two units, one line each (socket: installed; service: running).
show_units() {
    shown systemctl list-units --all --no-legend --no-pager "$1.socket" "$1.service"
}

# journal MATCH...: this session's journal entries of both apps that match (journalctl field matches).
journal() {
    journalctl --sync
    shown journalctl --no-pager -o short-iso-precise --since "@$started" -t phoned -t watchd "$@"
}

# wait_inactive UNIT SECONDS: waits until UNIT is no longer active (a condition with a bound).
wait_inactive() {
    local deadline=$((SECONDS + $2))
    while systemctl is-active --quiet "$1"; do
        [ $SECONDS -lt $deadline ] || { echo "lifecycle-tour: $1 still active after $2 s" >&2; return 1; }
        sleep 0.2
    done
}

section "Install and launch both apps"
say "The socket units are the apps being installed; the services are the apps running."
shown systemctl start phoned.socket watchd.socket
shown systemctl start phoned.service watchd.service
wait_for phone ready
wait_for watch ready
show_units watchd
wc status

section "A message with a reply"
say "A wcctl receive --follow --reply process is the watch app's message handler."
start_app watch receive --follow --channel message --reply '{"pong":true}'
wait_for watch handler
wc send '{"ping":1}'
stop_app watch

section "Terminate the watch app: systemctl stop"
say "Its socket stays: the app is installed, not running. A message from the phone never launches it."
shown systemctl stop watchd.service
show_units watchd
wc send '{"ping":2}' || true

section "A background launch by socket activation"
say "A userInfo transfer is durable on the phone; its connection to watchd.socket launches the watch app."
# shellcheck disable=SC2016 # "$date" is JSON, not a shell expansion
wc transfer '{"workout":{"km":5.2,"at":{"$date":"2026-05-01T07:00:00Z"}}}'
wait_for phone drained
show_units watchd
journal WC_EVENT=backgroundLaunch
say "With nothing more to do, the app exits by itself after timeouts.idleExit (waiting up to 60 s)."
wait_inactive watchd.service 60
journal WC_EVENT=idleExit
show_units watchd

section "Launch the watch app: what arrived is in its store"
shown systemctl start watchd.service
wait_for watch ready
wc --side watch receive
say "The phone was told the transfer finished (didFinish):"
wc receive --channel didFinish

section "A fault with socat: garbage into the watch app's link socket"
printf '$ %s\n' 'head -c 64 /dev/urandom | socat - UNIX-CONNECT:/run/watchpair/watchd.sock >/dev/null'
head -c 64 /dev/urandom | socat - UNIX-CONNECT:/run/watchpair/watchd.sock >/dev/null
journal WC_EVENT=frameRejected
say "The app closed that connection and carries on, still reachable:"
wait_for phone reachable

section "The session in the journal"
say "Every diagnostic event is one journal entry with WC_* fields; these are all of this session's:"
journal WC_ROLE=phone WC_ROLE=watch
say "journalctl -x explains each event from the catalog (systemd/watchpair.catalog)."

section "The session as a picture"
wc timeline --html "$out/session.html"

section "Stop both apps and their sockets (the devices are off)"
shown systemctl stop "${units[@]}"
shown systemctl is-active "${units[@]}" || true
say "Done: the page above is the whole session, both lifelines, every launch, message, transfer and fault."
