#!/usr/bin/env bash
# Runs wcbench alternately against two sets of daemon binaries, so a shared, noisy machine treats both
# alike: old-1, new-1, old-2, new-2, ... Each run's table and JSON land in OUT_DIR; compare them with
# scripts/bench/compare.py OUT_DIR.
# usage: scripts/bench/alternate.sh OLD_BIN_DIR NEW_BIN_DIR OUT_DIR [PAIRS=3] [wcbench options...]
# The wcbench of NEW_BIN_DIR drives both (--bin-dir), so only the daemons differ.
set -euo pipefail
old=${1:?usage: $0 OLD_BIN_DIR NEW_BIN_DIR OUT_DIR [PAIRS] [wcbench options]}
new=${2:?}; out=${3:?}; pairs=${4:-3}
shift $(( $# < 4 ? $# : 4 ))
mkdir -p "$out"
for i in $(seq 1 "$pairs"); do
    for side in old new; do
        dir=$old; [ "$side" = new ] && dir=$new
        echo "== run $i $side $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
        "$new/wcbench" --bin-dir "$dir" --json "$out/$side-$i.json" "$@" > "$out/$side-$i.txt" 2> "$out/$side-$i.err"
    done
done
