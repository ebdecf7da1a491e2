# The catalog has exactly one entry per event kind (the engine's, the reliability layer's and keyed
# sync's), with its MESSAGE_ID, the fields journalctl -x shows, and it compiles with journalctl --update-catalog.
set -uo pipefail
. "$WP_REPO/tests/system/event-kinds.sh"
catalog=$WP_REPO/systemd/watchpair.catalog
ids=$(event_kind_ids " ")
[ "$(echo "$ids" | wc -l)" -ge 20 ] || { echo "could not read the kinds from ${event_kind_sources[*]}"; exit 1; }
cases=$(event_kind_count)
[ "$(echo "$ids" | wc -l)" = "$cases" ] || { echo "$cases kinds but $(echo "$ids" | wc -l) message ids"; exit 1; }
entries=$(grep -c '^-- [0-9a-f]\{32\}$' "$catalog")
[ "$entries" = "$cases" ] || { echo "catalog has $entries entries for $cases kinds"; exit 1; }
while read -r kind id; do
    entry=$(awk -v id="-- $id" '$0 == id { on = 1; print; next } /^-- / { on = 0 } on' "$catalog")
    [ -n "$entry" ] || { echo "no catalog entry for $kind ($id)"; exit 1; }
    for header in Subject: Defined-By: Documentation:; do
        # A here-string, not `echo | grep -q`: grep -q exits at the first match, and with pipefail the
        # echo's SIGPIPE (when it had more to write) failed the check at random under load.
        grep -q "^$header " <<<"$entry" || { echo "$kind: no $header"; exit 1; }
    done
    grep -q "WC_EVENT=$kind\." <<<"$entry" || { echo "$kind: the text does not name WC_EVENT=$kind"; exit 1; }
    # Text: at least two paragraphs (what happened, what to do).
    [ "$(awk 'NR > 4 && /^$/' <<<"$entry" | wc -l)" -ge 1 ] || { echo "$kind: one paragraph only"; exit 1; }
done <<< "$ids"
root=$(mktemp -d /tmp/wp-catalog.XXXXXX)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/local/lib/systemd/catalog"
cp "$catalog" "$root/usr/local/lib/systemd/catalog/"
journalctl --root="$root" --update-catalog || exit 1
listed=$(journalctl --root="$root" --list-catalog | grep -c '^5e1d0a3c')
[ "$listed" = "$cases" ] || { echo "journalctl lists $listed entries, expected $cases"; exit 1; }
echo "$cases kinds catalogued"
