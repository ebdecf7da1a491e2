#!/usr/bin/env python3
"""Splits a perf recording (perf script -F time,ip,sym,dso) into equal time slices and says, per slice, what
share of the samples was in SQLite and in which of its system calls: pread (a page cache miss), pwrite (the
WAL and the checkpoint), fsync/fdatasync. Used for BENCHMARKS.md "Cost growth": the 100k fill of `wcbench
--only growth` queues at a steady rate, so its first and last slices are the shallow and the deep backlog.

usage: perf script -i fill.data -F time,ip,sym,dso | scripts/bench/profile-split.py [SLICES=5]
"""
import sys

slices = int(sys.argv[1]) if len(sys.argv) > 1 else 5
samples = []  # (time, frames)
current = None
for line in sys.stdin:
    if not line.startswith(("\t", " ")) and line.strip().endswith(":"):
        current = (float(line.strip()[:-1]), [])
        samples.append(current)
    elif current is not None and line.strip():
        current[1].append(line.strip())

def kind(frames):
    text = "\n".join(frames)
    if "libsqlite3" not in text:
        return "outside SQLite"
    for name, marks in (("SQLite: pread", ("sys_pread64", "pread64")), ("SQLite: pwrite", ("sys_pwrite64", "pwrite64")),
                        ("SQLite: fsync", ("fdatasync", "sys_fsync", "do_fsync"))):
        if any(mark in text for mark in marks):
            return name
    return "SQLite: other"

kinds = ["outside SQLite", "SQLite: other", "SQLite: pread", "SQLite: pwrite", "SQLite: fsync"]
start, end = samples[0][0], samples[-1][0]
width = (end - start) / slices
print(f"{len(samples)} samples over {end - start:.1f} s")
print("slice        samples  " + "  ".join(f"{k:>15}" for k in kinds))
for index in range(slices):
    low, high = start + index * width, start + (index + 1) * width
    chosen = [frames for time, frames in samples if low <= time < high or (index == slices - 1 and time == end)]
    counts = {k: 0 for k in kinds}
    for frames in chosen:
        counts[kind(frames)] += 1
    total = max(len(chosen), 1)
    print(f"{index + 1}/{slices} {high - low:5.1f} s {len(chosen):8d}  " + "  ".join(f"{100 * counts[k] / total:14.1f}%" for k in kinds))
