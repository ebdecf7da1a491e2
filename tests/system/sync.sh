# Keyed-sync helpers for the 4x-sync-* scenarios (docs/KeyedSync.md), sourced after lib.sh. They read the
# apps' ledgers through `wcctl sync get`, as a script would.

# sync_field SIDE KEY FIELD: one field of the key as SIDE's app holds it (strings bare, the rest as
# JSON); fails (status != 0) while the app knows nothing of the key.
sync_field() {
    local state
    state=$(sx timeout 10 wcctl --side "$1" --json sync get "$2" 2>/dev/null) || return 1
    echo "$state" | json_get "$3"
}
# holds SIDE KEY VALUE [REVISION]: SIDE's app holds VALUE (as sync_field prints it) for KEY, at
# REVISION when given.
holds() {
    [ "$(sync_field "$1" "$2" value)" = "$3" ] || return 1
    [ -z "${4:-}" ] || [ "$(sync_field "$1" "$2" revision)" = "$4" ]
}
# wait_holds SECONDS SIDE KEY VALUE [REVISION]: waits (bounded) until holds, else fails with what
# the app has.
wait_holds() {
    local seconds=$1
    shift
    poll "$seconds" holds "$@" ||
        fail "after ${seconds}s the $1 app holds for $2: $(sx wcctl --side "$1" --json sync get "$2" 2>&1) (expected $3 ${4:-})"
}
# expect_watch_has_phone_keys KEY...: the end of every sync scenario: the watch holds each key at the
# value and revision the phone holds now (the phone's latest).
expect_watch_has_phone_keys() {
    local key value revision
    for key in "$@"; do
        value=$(sync_field phone "$key" value) || fail "the phone has no key $key"
        revision=$(sync_field phone "$key" revision) || fail "the phone has no revision of $key"
        wait_holds 20 watch "$key" "$value" "$revision"
    done
    note "watch sync list:"
    sx wcctl --side watch sync list >&2
}
# phone_alone: a clean pair with only the phone app running and the watch off (its socket stopped:
# device off, the app still installed), where the phone-first scenarios start.
phone_alone() {
    reset_pair
    journal_mark
    sx systemctl start phoned.service
    wait_for 10 phone ready
    expect_unit watchd.socket inactive
}
# confirmed KEY: the phone's app holds KEY as synced (the watch confirmed its revision).
confirmed() { [ "$(sync_field phone "$1" needSync)" = false ]; }
# start_watch: installs and starts the watch app and makes sure it runs in the foreground. With the
# phone's content pending, the link can reach watchd.socket before the service starts, and that start
# is a background launch that idle-exits (see start_app): then it is started again.
start_watch() {
    sx systemctl start watchd.socket watchd.service
    wait_unit watchd.service active
    ensure_foreground watchd
}
