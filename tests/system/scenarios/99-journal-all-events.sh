# Every diagnostic event the daemons wrote during the whole run (all scenarios before this one) has
# the MESSAGE_ID of its kind, the required fields and no UNIT=; lists the kinds no scenario produced.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
. "$WP_REPO/tests/system/event-kinds.sh"
ids=$(event_kind_ids =)
WP_SCRATCH=$(scratch)
sx journalctl --sync
sx journalctl --no-pager -o json SYSLOG_IDENTIFIER=phoned SYSLOG_IDENTIFIER=watchd > "$WP_SCRATCH/all"
# shellcheck disable=SC2086
$PY - "$WP_SCRATCH/all" $ids <<'PY' || fail "event fields"
import json, sys
ids = dict(arg.split("=") for arg in sys.argv[2:])
seen, count = set(), 0
for line in open(sys.argv[1]):
    e = json.loads(line)
    kind = e.get("WC_EVENT")
    if kind is None:
        continue  # a log record of the daemon, not a diagnostic event
    count += 1
    problems = []
    if kind not in ids: problems.append("unknown WC_EVENT")
    elif e.get("MESSAGE_ID") != ids[kind]: problems.append(f"MESSAGE_ID {e.get('MESSAGE_ID')}")
    for field in ("MESSAGE", "PRIORITY", "WC_ROLE", "WC_PAIR"):
        if not e.get(field): problems.append(f"no {field}")
    # A pair's events name it: phoned@NAME's carry WC_PAIR=NAME, the default pair's "default".
    unit = e.get("_SYSTEMD_UNIT", "")
    pair = unit.split("@", 1)[1].rsplit(".", 1)[0] if "@" in unit else "default"
    if unit and e.get("WC_PAIR") != pair: problems.append(f"WC_PAIR {e.get('WC_PAIR')} from {unit}")
    if "UNIT" in e: problems.append("UNIT= is set")
    if "WC_ERROR_CODE" in e and not (7001 <= int(e["WC_ERROR_CODE"]) <= 7018): problems.append("WC_ERROR_CODE")
    if problems:
        sys.exit(f"{kind}: {', '.join(problems)}: {line.strip()[:300]}")
    seen.add(kind)
print(f"{count} events of {len(seen)} kinds checked; never produced: {', '.join(sorted(set(ids) - seen)) or 'none'}")
PY
