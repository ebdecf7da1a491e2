#!/bin/bash
# A short scripted tour of the three WatchConnectivity channels with the real daemons and wcctl.
#
# usage: scripts/demo.sh [BIN_DIR]     (default .build/debug; build first with `swift build`)
#
# Starts phoned (the iPhone app) and watchd (the Apple Watch app) in a temporary directory, without
# systemd, and shows each wcctl command before its output: status, a message with a reply, a userInfo
# transfer queued while the watch app is stopped and delivered when it starts (with didFinish on the
# phone), an application context, and 7007 when the watch is not running. Everything started here is
# stopped and the directory removed on exit, also on failure or Ctrl-C.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/scripts/lib/demo-lib.sh"

cd "$repo"
demo_setup "${1:-.build/debug}"
trap demo_cleanup EXIT
trap 'exit 130' INT TERM

section "Start both apps"
say "Daemons in $DEMO_DIR (config files, sockets, state); wcctl finds them through WCCTL_RUNTIME_DIR."
start_daemon phoned
start_daemon watchd
wc status
wc --side watch status

section "Message with a reply"
say "A wcctl receive --follow --reply process is the watch app's message handler."
start_app watch receive --follow --channel message --reply '{"pong":true}'
say "wait handler: until the watch app's handler is attached (a message before that gets 7014)."
wait_for watch handler
wc send '{"ping":1}'
wc send --no-reply '{"tap":"crown"}'
stop_app watch

section "userInfo while the watch app is stopped"
stop_daemon watchd
say "The transfer is durable on the phone and waits for the watch."
# shellcheck disable=SC2016 # "$date" is JSON, not a shell expansion
wc transfer '{"workout":{"km":5.2,"at":{"$date":"2026-05-01T07:00:00Z"}}}'
wc transfers
say "Start the watch app: the phone delivers what was queued."
start_daemon watchd
say "wait drained: until the watch has it (the phone's outbox is empty)."
wait_for phone drained
wc --side watch receive
say "The phone is told the transfer finished (didFinish):"
wc receive --channel didFinish

section "Application context"
wc context set '{"theme":"dark","complication":"rings"}'
wc context set '{"theme":"dark","complication":"rings"}'
say "The watch ends at the newest context; it survives restarts of either app."
wait_for phone drained
wc --side watch context get --received

section "7007 when the watch app is not running"
stop_daemon watchd
wc send '{"ping":2}' || true
say "A message from the phone never launches the watch app; userInfo and context wait for it."

section "Stop"
stop_daemon phoned
say "Done."
