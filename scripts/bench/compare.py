#!/usr/bin/env python3
"""Side-by-side table of alternating wcbench runs (scripts/bench/alternate.sh): one column per run in the
order they ran (old-1 new-1 old-2 new-2 ...), then the median of each side, and the change of each side's
median against the first side's. Medians, because a shared machine disturbs single runs in both directions.

usage: scripts/bench/compare.py [--range] DIR [LABEL_SUBSTRING ...]   (no substrings: every measurement)
Runs are DIR/<side>-<n>.json for any side names (alternate.sh writes old and new). With --range, each
side's min, median and max replace the per-run columns (for three or more sides and many rounds).
"""
import glob, json, os, re, statistics, sys

def main():
    ranges = '--range' in sys.argv
    if ranges:
        sys.argv.remove('--range')
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = glob.glob(os.path.join(sys.argv[1], '*-[0-9]*.json'))
    if not runs:
        sys.exit(f"no <side>-<n>.json in {sys.argv[1]}")
    side_of = lambda name: re.sub(r'-\d+$', '', name)
    names = [os.path.basename(p)[:-5] for p in runs]
    sides = sorted({side_of(n) for n in names}, key=lambda s: (s != 'old', s))
    names.sort(key=lambda n: (int(re.search(r'-(\d+)$', n).group(1)), sides.index(side_of(n))))
    data = {n: {m['key']: m for m in json.load(open(os.path.join(sys.argv[1], n + '.json')))['measurements']} for n in names}
    first = data[names[0]]
    wanted = sys.argv[2:]
    keys = [k for k in first if not wanted or any(w in first[k]['label'] for w in wanted)]
    fmt = lambda v: '—' if v is None else (f"{v:,.0f}" if abs(v) >= 100 else f"{v:.2f}")
    if ranges:
        head = [f"{s + ': min':>12} {'med':>7} {'max':>7}" for s in sides] + [f"{s + ' Δ':>9}" for s in sides[1:]]
    else:
        head = [f"{n:>9}" for n in names] + [f"{'med ' + s:>10}" for s in sides] + [f"{s + ' Δ':>9}" for s in sides[1:]]
    print(f"{'measurement':64} " + " ".join(head))
    for k in keys:
        label = f"{first[k]['label'][:56]} ({first[k]['unit']})"
        values = [data[n].get(k, {}).get('value') for n in names]
        medians, spans = [], []
        for s in sides:
            mine = [v for n, v in zip(names, values) if side_of(n) == s and v is not None]
            medians.append(statistics.median(mine) if mine else None)
            spans.append((min(mine), statistics.median(mine), max(mine)) if mine else (None, None, None))
        base = medians[0]
        changes = [('—' if m is None or not base else f"{(m - base) / base * 100:+.1f}%") for m in medians[1:]]
        if ranges:
            cells = [f"{fmt(lo):>12} {fmt(med):>7} {fmt(hi):>7}" for lo, med, hi in spans] + [f"{c:>9}" for c in changes]
        else:
            cells = [f"{fmt(v):>9}" for v in values] + [f"{fmt(m):>10}" for m in medians] + [f"{c:>9}" for c in changes]
        print(f"{label:64} " + " ".join(cells))

main()
