# Keyed sync, a key changed many times while the watch is off (docs/KeyedSync.md): only the newest lands
# (one syncReceived, at the last revision). Then an older revision queued by userInfo arrives late
# (an old snapshot, in the layer's wire form: docs/WatchConnection.md "Wire form") and is ignored:
# syncIgnored in journald, and the watch still holds the newest.
# timeout: 90
. "$WP_REPO/tests/system/lib.sh"
. "$WP_REPO/tests/system/sync.sh"
phone_alone
for n in $(seq 1 20); do
    phone sync set counter "$n" >/dev/null || fail "sync set counter $n"
done
[ "$(sync_field phone counter revision)" = 20@phone ] || fail "phone: $(phone sync get counter)"

start_watch
wait_holds 30 watch counter 20 20@phone
received=$(events WC_EVENT=syncUnknownKey WC_EVENT=syncReceived WC_ROLE=watch WC_SYNC_KEY=counter | field WC_SYNC_REVISION | tr '\n' ' ')
[ "$received" = "20@phone " ] || fail "the watch took these revisions of counter: $received"

# An old snapshot (counter 5 at 5@phone) queued by userInfo while the watch is stopped, arriving late.
sx systemctl stop watchd.service
wait_unit watchd.service inactive
old=$($PY -c '
import base64, json, uuid
entry = {"key": "counter", "revision": {"counter": 5, "writer": "phone"}, "value": base64.b64encode(b"5").decode()}
envelope = {"v": 1, "kind": "request", "id": str(uuid.uuid4()).upper(), "type": "KeyedSync.Push", "reply": False,
            "body": {"entries": [entry]}}
print(json.dumps({"watchConnection": json.dumps(envelope)}))')
phone transfer "$old" >/dev/null || fail "queue the old snapshot"
ensure_foreground watchd
wait_event 30 WC_EVENT=syncIgnored WC_ROLE=watch WC_SYNC_KEY=counter WC_SYNC_REVISION=5@phone
events WC_EVENT=syncIgnored WC_ROLE=watch | field MESSAGE >&2
holds watch counter 20 20@phone || fail "after the late old revision the watch holds: $(watch sync get counter)"
expect_watch_has_phone_keys counter
echo "only the newest of 20 changes landed, and a late older revision was ignored"
