# A phone with several watches under systemd (docs/Watches.md): phoned.service lists watches wa and wb,
# each the watch of its pair (watchd@wa, watchd@wb, hardened template units). What the phone queues for wa
# while wa is off waits; `wcctl switch wb` deactivates the phone and rebinds it to wb, which gets only its
# own; wa comes on and `wcctl switch wa` delivers wa's queue. Then wb is unpaired, which drops what was
# queued for it and says how much (watchUnpaired), and each switch is a watchSwitched entry of phoned.
# timeout: 150
. "$WP_REPO/tests/system/lib.sh"
. "$WP_REPO/tests/system/pairs.sh"
dropin=/run/systemd/system/phoned.service.d
cleanup() {
    sx systemctl stop phoned.service 2>/dev/null
    sx rm -f "$dropin/wp-watches.conf"
    sx systemctl daemon-reload
    for watch in wa wb; do reset_named_pair "$watch"; done
    reset_pair
}
trap cleanup EXIT
reset_pair
for watch in wa wb; do reset_named_pair "$watch"; done
# The phone lists its watches by environment: the shipped phoned.json stays as it is.
sx mkdir -p "$dropin"
sx sh -c "printf '[Service]\nEnvironment=WATCHPAIR_WATCHES=wa,wb\n' > $dropin/wp-watches.conf"
sx systemctl daemon-reload
journal_mark

sx systemctl start phoned.service
wait_unit phoned.service active
phone wait ready --timeout 20 >/dev/null || fail "phoned with two watches is not ready"
# bound_to NAME: phoned is activated and bound to watch NAME.
bound_to() {
    phone --json watches | $PY -c '
import json, sys
d = json.load(sys.stdin)
row = [w for w in d["watches"] if w["name"] == sys.argv[1]][0]
sys.exit(0 if d["session"] == "activated" and row["bound"] else 1)' "$1"
}
# received_by NAME: the userInfo watch NAME's app takes now, one JSON line each.
received_by() { sx timeout 30 wcctl --pair "$1" --side watch receive --channel userInfo | json_get userInfo 2>/dev/null; }
bound_to wa || fail "phoned is not bound to wa at start: $(phone watches)"

# wa is off: its userInfo waits at the phone.
phone transfer '{"for":"wa"}' >/dev/null || fail "transfer for wa"
sx systemctl start watchd@wb.socket watchd@wb.service
wait_unit watchd@wb.service active
phone switch wb >/dev/null || fail "switch to wb"
wait_until 30 "phoned bound to wb" bound_to wb
phone transfer '{"for":"wb"}' >/dev/null || fail "transfer for wb"
wb_got() { [ "$(received_by wb)" = '{"for": "wb"}' ]; }
wait_until 30 "wb receives its own userInfo" wb_got
phone watches | grep -q '^wa .*1 userInfo' || fail "wa's queue is not kept: $(phone watches)"

# wa comes on; back to it: its queue is delivered there.
sx systemctl start watchd@wa.socket watchd@wa.service
wait_unit watchd@wa.service active
phone switch wa >/dev/null || fail "switch back to wa"
wait_until 30 "phoned bound to wa" bound_to wa
wa_got() { [ "$(received_by wa)" = '{"for": "wa"}' ]; }
wait_until 30 "wa receives what was queued for it" wa_got
[ -z "$(received_by wb)" ] || fail "wb got more than its own"

# wb unpaired: nothing was left for it; the journal says so, and a switch to it is refused (7005).
dropped=$(phone --json unpair wb) || fail "unpair wb"
[ "$(json_get dropped.userInfo <<<"$dropped")" = 0 ] || fail "unpair wb: $dropped"
phone switch wb >/dev/null 2>&1
[ $? = 105 ] || fail "a switch to an unpaired watch is not 7005"
wait_event 10 WC_EVENT=watchUnpaired WC_ROLE=phone
[ "$(count_events WC_EVENT=watchSwitched WC_ROLE=phone)" -ge 2 ] || fail "two switches, $(count_events WC_EVENT=watchSwitched WC_ROLE=phone) watchSwitched events"
echo "phoned switched between two template-unit watches; each watch's queue stayed its own"
