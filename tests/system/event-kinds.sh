# The event kinds of every vocabulary (docs/Systemd.md, "journald"), read from their Swift sources: the
# engine's, the reliability layer's and keyed sync's, each kind a `case name` with a
# `case .name: "<MESSAGE_ID>"`. Sourced by the catalog check and the journal scenarios; needs WP_REPO.
event_kind_sources=(
    "$WP_REPO/Sources/WatchPairCore/Diagnostics/CoreEventKind.swift"
    "$WP_REPO/Sources/WatchPairDaemon/Events/LayerEventKind.swift"
    "$WP_REPO/Sources/WatchPairDaemon/Events/SyncEventKind.swift"
)

# event_kind_ids SEP: one `name<SEP>MESSAGE_ID` line per kind.
event_kind_ids() {
    sed -n "s/^ *case \\.\\([a-zA-Z]*\\): \"\\([0-9a-f]\\{32\\}\\)\"\$/\\1$1\\2/p" "${event_kind_sources[@]}"
}

# event_kind_count: how many kinds the sources declare.
event_kind_count() {
    cat "${event_kind_sources[@]}" | grep -c '^ *case [a-zA-Z]*$'
}
