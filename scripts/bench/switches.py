#!/usr/bin/env python3
"""Which code put a daemon's threads to sleep, or was preempted, per item: a context-switch recording
(wcbench --profile DIR --profile-switches) summed by thread, state and the first frames of user code.

usage: scripts/bench/switches.py --count N [--top 20] [--frames 4] PROFILE.data [PROFILE.data ...]

Each sched_switch event is one thread leaving its CPU. Its state: S (waits: epoll, a condition, a lock), D
(waits for the disk: fsync) or R (preempted, e.g. by the thread it just woke). The signature is the
thread's name, the state and the first --frames frames of user space (the kernel's are skipped); rows are
events per item (N: the window's transfers or messages), most first. Their sum per process is what wcbench
reports as context switches per transfer (BENCHMARKS.md, "userInfo throughput").
"""
import argparse, collections, re, subprocess


def summarize(path, count, frames, top):
    text = subprocess.run(["perf", "script", "-i", path, "-F", "comm,tid,event,trace,ip,sym,dso"],
                          capture_output=True, text=True, check=True).stdout
    rows, total = collections.Counter(), 0
    for block in text.strip().split("\n\n"):
        lines = [line.strip() for line in block.strip().splitlines()]
        if not lines:
            continue
        total += 1
        head = re.match(r"(.*?)\s+\d+\s+sched:sched_switch:.*?prev_state=(\S+)", lines[0])
        user = []
        for line in lines[1:]:
            # "ADDRESS SYMBOL (DSO)": the kernel's frames (scheduler, syscalls, the file system) are skipped.
            frame = re.match(r"\S+\s+(.*?)\s+\((.*)\)$", line)
            if not frame or frame.group(2) == "[kernel.kallsyms]" or frame.group(1) == "[unknown]":
                continue
            symbol = re.sub(r"\+0x[0-9a-f]+$", "", frame.group(1)).replace(" (inlined)", "")
            user.append(symbol[:60])
        thread, state = head.groups() if head else ("?", "?")
        rows[f"{thread} {state} | " + " < ".join(user[:frames])] += 1
    print(f"{path}: {total / count:.2f} switches per item ({total} in all, {count} items)")
    for signature, n in rows.most_common(top):
        print(f"{n / count:7.2f}  {signature}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, required=True, help="items in the recorded window")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--frames", type=int, default=4)
    parser.add_argument("profiles", nargs="+")
    args = parser.parse_args()
    for path in args.profiles:
        summarize(path, args.count, args.frames, args.top)


if __name__ == "__main__":
    main()
