# journald: every diagnostic event is an entry with MESSAGE, MESSAGE_ID (the one of its kind),
# PRIORITY, SYSLOG_IDENTIFIER, WC_EVENT and WC_ROLE, never UNIT=; `journalctl MESSAGE_ID=… -o json`
# finds them and `journalctl -x` explains them with the catalog installed by install.sh.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
reset_pair
journal_mark
# While the watch is not installed: a transfer to cancel, and a payload over the 65,536-byte limit.
sx systemctl start phoned.service
id=$(phone transfer '{"n":0}') || fail "transfer"
phone transfers cancel "$id" >/dev/null || fail "cancel $id"
big=$(head -c 70000 /dev/zero | tr '\0' a)
expect_status 109 phone transfer "{\"blob\":\"$big\"}"
wait_event 5 WC_EVENT=userInfoCancelled WC_ROLE=phone
wait_event 5 WC_EVENT=payloadRejected WC_ROLE=phone WC_ERROR_CODE=7009
sx systemctl start phoned.service watchd.service
phone transfer '{"n":1}' >/dev/null || fail "transfer"
phone context set '{"k":1}' >/dev/null || fail "context"
watch send '{"x":1}' --timeout 2 >/dev/null 2>&1 || true   # 7014: no handler on the phone
wait_event 10 WC_EVENT=userInfoFinished WC_ROLE=phone
wait_event 10 WC_EVENT=contextReceived WC_ROLE=watch

# The MESSAGE_ID of every kind, from the Swift sources, against what the daemons logged.
. "$WP_REPO/tests/system/event-kinds.sh"
ids=$(event_kind_ids =)
WP_SCRATCH=$(scratch)
events WC_ROLE=phone WC_ROLE=watch > "$WP_SCRATCH/all"
[ -s "$WP_SCRATCH/all" ] || fail "no events"
$PY - "$WP_SCRATCH/all" $ids <<'PY' || fail "event fields"
import json, sys
ids = dict(arg.split("=") for arg in sys.argv[2:])
seen = set()
for line in open(sys.argv[1]):
    e = json.loads(line)
    kind = e.get("WC_EVENT")
    problems = []
    if kind not in ids: problems.append(f"unknown WC_EVENT {kind}")
    elif e.get("MESSAGE_ID") != ids[kind]: problems.append(f"MESSAGE_ID {e.get('MESSAGE_ID')} for {kind}")
    for field in ("MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "WC_ROLE"):
        if not e.get(field): problems.append(f"no {field}")
    if "UNIT" in e: problems.append("UNIT= is set")
    if e.get("SYSLOG_IDENTIFIER") not in ("phoned", "watchd"): problems.append(f"SYSLOG_IDENTIFIER {e.get('SYSLOG_IDENTIFIER')}")
    if {"phoned": "phone", "watchd": "watch"}.get(e.get("SYSLOG_IDENTIFIER")) != e.get("WC_ROLE"): problems.append("WC_ROLE vs identifier")
    if problems:
        sys.exit(f"{kind}: {', '.join(problems)}: {line.strip()}")
    seen.add(kind)
need = {"sessionActivated", "foregroundLaunch", "peerConnected", "reachabilityChanged", "userInfoQueued",
        "userInfoDelivered", "userInfoFinished", "userInfoCancelled", "payloadRejected", "contextUpdated",
        "contextReceived"}
missing = need - seen
if missing: sys.exit(f"missing kinds: {sorted(missing)}")
print(f"{len(seen)} kinds checked")
PY

# journalctl MESSAGE_ID=… -o json, as a user would look one kind up.
delivered=$(echo "$ids" | sed -n 's/^userInfoDelivered=//p')
sx journalctl --no-pager -o json MESSAGE_ID="$delivered" | tail -n 1 > "$WP_SCRATCH/one"
[ "$(field WC_EVENT < "$WP_SCRATCH/one")" = userInfoDelivered ] || fail "MESSAGE_ID lookup"
[ "$(field WC_CHANNEL < "$WP_SCRATCH/one")" = userInfo ] || fail "WC_CHANNEL"
[ -n "$(field WC_TRANSFER_ID < "$WP_SCRATCH/one")" ] || fail "WC_TRANSFER_ID"
# seq 1 went to the cancelled transfer and is never reused.
[ "$(field WC_SEQ < "$WP_SCRATCH/one")" = 2 ] || fail "WC_SEQ $(field WC_SEQ < "$WP_SCRATCH/one"), expected 2"
[ "$(field PRIORITY < "$WP_SCRATCH/one")" = 7 ] || fail "PRIORITY of userInfoDelivered: debug (7)"

# journalctl -x: the catalog text, with @SYSLOG_IDENTIFIER@ filled in.
activated=$(echo "$ids" | sed -n 's/^sessionActivated=//p')
sx journalctl --no-pager -x MESSAGE_ID="$activated" SYSLOG_IDENTIFIER=phoned -n 1 > "$WP_SCRATCH/x"
grep 'Subject: phoned activated its session' "$WP_SCRATCH/x" >/dev/null || { cat "$WP_SCRATCH/x"; fail "journalctl -x shows no catalog subject"; }
grep 'Defined-By: WatchPair' "$WP_SCRATCH/x" >/dev/null || fail "no Defined-By"
grep 'WC_EVENT=sessionActivated' "$WP_SCRATCH/x" >/dev/null || fail "no catalog text"
[ "$(sx journalctl --list-catalog | grep -c '^5e1d0a3c6f7b4b2a9c1e8d7f60a1b2')" = "$(echo "$ids" | wc -l)" ] || fail "catalog entries"
echo "events, MESSAGE_IDs and catalog"
