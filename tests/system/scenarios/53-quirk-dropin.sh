# A quirk of real devices on for a whole run from a systemd drop-in (docs/Configuration.md, "Quirks"):
# `Environment=WATCHPAIR_QUIRKS_DUPLICATE_USER_INFO_COUNT=1` on watchd makes its app receive the first
# userInfo twice; the journal has quirkInjected with WC_QUIRK and the transfer it hit, `wcctl quirk list`
# shows it set and spent, and `wcctl quirk clear` turns it off (the next transfer arrives once). A
# misspelt quirk variable stops the daemon with exit 78 naming it.
# timeout: 120
. "$WP_REPO/tests/system/lib.sh"
dropin=/run/systemd/system/watchd.service.d/62-quirk.conf
cleanup() {
    unset_dropin "$dropin"
    sx systemctl reset-failed watchd.service 2>/dev/null || true
}
trap cleanup EXIT
set_dropin "$dropin" Environment=WATCHPAIR_QUIRKS_DUPLICATE_USER_INFO_COUNT=1
reset_pair
sx systemctl start phoned.service watchd.service
wait_unit phoned.service active
wait_unit watchd.service active
wait_for 20 phone reachable
journal_mark

listed=$(watch --json quirk list) || fail "wcctl quirk list"
set_=$(echo "$listed" | $PY -c 'import json, sys; print([q["set"] for q in json.load(sys.stdin)["quirks"] if q["name"] == "duplicateUserInfo"][0])')
[ "$set_" = True ] || fail "duplicateUserInfo is not set from the drop-in: $listed"

id=$(phone transfer '{"n":1}') || fail "transfer"
wait_event 15 WC_EVENT=userInfoDelivered WC_ROLE=watch WC_SEQ=1
# The opportunity is the delivery to the app: `wcctl receive`, acting as the watch app.
got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "1 1 " ] || fail "watch received: $got (expected the first transfer twice)"
wait_event 15 WC_EVENT=quirkInjected WC_ROLE=watch
[ "$(events WC_EVENT=quirkInjected WC_ROLE=watch | field WC_QUIRK)" = duplicateUserInfo ] || fail "WC_QUIRK is not duplicateUserInfo"
[ "$(events WC_EVENT=quirkInjected WC_ROLE=watch | field WC_TRANSFER_ID)" = "$id" ] || fail "WC_TRANSFER_ID is not the transfer's"
spent=$(watch --json quirk list | $PY -c 'import json, sys; print([q["spent"] for q in json.load(sys.stdin)["quirks"] if q["name"] == "duplicateUserInfo"][0])')
[ "$spent" = True ] || fail "duplicateUserInfo not spent after its one injection"
watch events --event quirkInjected | grep -q 'duplicateUserInfo' || fail "wcctl events does not show the injection"

watch quirk clear >/dev/null || fail "wcctl quirk clear"
phone transfer '{"n":2}' >/dev/null || fail "transfer"
wait_event 15 WC_EVENT=userInfoDelivered WC_ROLE=watch WC_SEQ=2
got=$(received_ns watch | tr '\n' ' ')
[ "$got" = "2 " ] || fail "after clear the watch received: $got"
[ "$(count_events WC_EVENT=quirkInjected)" = 1 ] || fail "more than one injection"

# A misspelt quirk variable: the daemon refuses to start (EX_CONFIG), naming it.
set_dropin "$dropin" Environment=WATCHPAIR_QUIRKS_DUPLICATE_USERINFO_COUNT=1
sx systemctl stop watchd.service watchd.socket
journal_mark
sx systemctl start watchd.service || true
wait_until 15 "watchd to fail" unit_is watchd.service failed
[ "$(unit_prop watchd.service ExecMainStatus)" = 78 ] || fail "exit status $(unit_prop watchd.service ExecMainStatus), expected 78"
sx journalctl --no-pager -u watchd.service -n 20 | grep -q WATCHPAIR_QUIRKS_DUPLICATE_USERINFO_COUNT || fail "the error does not name the variable"
echo "a quirk from a drop-in: injected once with WC_QUIRK, listed, cleared; a misspelt one exits 78"
