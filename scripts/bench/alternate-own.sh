#!/usr/bin/env bash
# Runs each build's own wcbench against its own daemons, alternating between the builds, so a shared, noisy
# machine treats them alike: side1-1, side2-1, ..., side1-2, ... For sections that measure wcbench's own apps
# (layer, wcmodule), where the client must change with the daemons; for daemon-only changes alternate.sh
# keeps the client fixed. Each run's table and JSON land in OUT_DIR; compare them with
# scripts/bench/compare.py [--range] OUT_DIR.
# usage: scripts/bench/alternate-own.sh OUT_DIR PAIRS SECTIONS NAME=BIN_DIR [NAME=BIN_DIR ...]
#   e.g. scripts/bench/alternate-own.sh /tmp/cmp 5 baseline,layer old=/tmp/old new=/tmp/new
set -euo pipefail
out=${1:?usage: $0 OUT_DIR PAIRS SECTIONS NAME=BIN_DIR [NAME=BIN_DIR ...]}
pairs=${2:?}; sections=${3:?}
shift 3
[ $# -ge 1 ] || { echo "$0: name at least one NAME=BIN_DIR" >&2; exit 2; }
mkdir -p "$out"
for i in $(seq 1 "$pairs"); do
    for spec in "$@"; do
        side=${spec%%=*}; dir=${spec#*=}
        echo "== run $i $side $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
        "$dir/wcbench" --bin-dir "$dir" --json "$out/$side-$i.json" --only "$sections" --quiet \
            > "$out/$side-$i.txt" 2> "$out/$side-$i.err"
    done
done
