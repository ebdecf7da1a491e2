#!/usr/bin/env python3
"""Side-by-side table of alternating wcbench runs (scripts/bench/alternate.sh): one column per run,
old-1 new-1 old-2 new-2 ...

usage: scripts/bench/compare.py DIR [LABEL_SUBSTRING ...]   (no substrings: every measurement)
"""
import glob, json, os, re, sys

def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = glob.glob(os.path.join(sys.argv[1], '*-[0-9]*.json'))
    order = lambda p: (int(re.search(r'-(\d+)\.json$', p).group(1)), os.path.basename(p).startswith('new'))
    runs.sort(key=order)
    if not runs:
        sys.exit(f"no old-N.json / new-N.json in {sys.argv[1]}")
    data = {os.path.basename(p)[:-5]: {m['key']: m for m in json.load(open(p))['measurements']} for p in runs}
    names = list(data)
    first = data[names[0]]
    wanted = sys.argv[2:]
    keys = [k for k in first if not wanted or any(w in first[k]['label'] for w in wanted)]
    fmt = lambda v: '—' if v is None else (f"{v:,.0f}" if abs(v) >= 100 else f"{v:.2f}")
    print(f"{'measurement':64} " + " ".join(f"{n:>9}" for n in names))
    for k in keys:
        label = f"{first[k]['label'][:56]} ({first[k]['unit']})"
        print(f"{label:64} " + " ".join(f"{fmt(data[n].get(k, {}).get('value')):>9}" for n in names))

main()
