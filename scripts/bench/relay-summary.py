#!/usr/bin/env python3
"""min / median / max over the runs' JSON (wcbench --only baseline,message) for the relay-floor table.

usage: scripts/bench/relay-summary.py run1.json run2.json ...   (BENCHMARKS.md, "The floor of four crossings")
"""
import json, statistics, sys
runs = [json.load(open(p)) for p in sys.argv[1:]]
def value(run, key):
    return next(m["value"] for m in run["measurements"] if m["key"] == key)
for i, run in enumerate(runs, 1):
    print(f"run {i}: load average at start {run['machine']['loadAverageAtStart']}, at end {run['machine']['loadAverageAtEnd']}, {run['durationSeconds']:.1f} s")
rows = []
for size in (64, 1024):
    for name, key in (("raw ping-pong", f"baseline.pingPong.{size}B"),
                      ("blocking relay", f"baseline.relay.blocking.{size}B"),
                      ("epoll relay", f"baseline.relay.epoll.{size}B"),
                      ("daemons' round trip", f"message.rtt.{size}B.autoReply")):
        for p in ("p50", "p99"):
            rows.append((f"{name}, {size} B, {p}", lambda r, k=f"{key}.{p}": value(r, k), "µs"))
    for name, num, den in (("blocking relay / ping-pong", "baseline.relay.blocking", "baseline.pingPong"),
                           ("epoll relay / ping-pong", "baseline.relay.epoll", "baseline.pingPong"),
                           ("round trip / ping-pong", "message.rtt", "baseline.pingPong"),
                           ("round trip / epoll relay", "message.rtt", "baseline.relay.epoll")):
        for p in ("p50", "p99"):
            def f(r, num=num, den=den, p=p, size=size):
                n = f"{num}.{size}B.autoReply.{p}" if num == "message.rtt" else f"{num}.{size}B.{p}"
                return value(r, n) / value(r, f"{den}.{size}B.{p}")
            rows.append((f"{name}, {size} B, {p}", f, "×"))
print("| figure | " + " | ".join(f"run {i}" for i in range(1, len(runs) + 1)) + " | min | median | max |")
print("|---|" + "---|" * (len(runs) + 3))
for label, f, unit in rows:
    values = [f(r) for r in runs]
    fmt = (lambda v: f"{v:.2f}×") if unit == "×" else (lambda v: f"{v:.1f}" if v < 100 else f"{v:.0f}")
    print(f"| {label} | " + " | ".join(fmt(v) for v in values) + f" | {fmt(min(values))} | {fmt(statistics.median(values))} | {fmt(max(values))} |")
