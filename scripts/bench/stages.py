#!/usr/bin/env python3
"""Where each microsecond goes: a daemon's perf profile (wcbench --profile) as CPU µs per stage per item.

usage: scripts/bench/stages.py --count N --hz HZ PROFILE.data [PROFILE.data ...]
       scripts/bench/stages.py --count N --hz HZ --script FILE.txt        (saved `perf script` output)

Each sample's call chain is read from the leaf towards the root; the first frame that names a stage
decides the sample's stage (a memcpy under the JSON encoder is control JSON; the kernel's fdatasync
under SQLite is fsync, not the store). A sample is 1/HZ seconds of CPU (wcbench records at 499 Hz), so
µs per item = samples / HZ / N * 1e6, with N the transfers or messages of the profiled window (the
section's count: BENCHMARKS.md, "Where each microsecond goes"). Prints one column per profile.
"""
import argparse, collections, re, subprocess, sys

# (stage, pattern on a frame's symbol or DSO), tried in this order for each frame from the leaf; the first
# frame that matches any stage decides, except that a sample with fsync anywhere in its chain is fsync's.
# Allocation and reference counting count only where no stage
# frame is above them (a retain under the JSON parser is control JSON).
STAGES = [
    ("fsync", r"sys_fsync|sys_fdatasync|ext4_sync_file|file_write_and_wait|jbd2|blkdev_issue_flush"),
    ("wake-ups (scheduler, futex, epoll)", r"finish_task_switch|__schedule|\bschedule\b|try_to_wake_up|futex|"
     r"epoll_wait|ep_poll|do_epoll|__wake_up|pthread_cond|_dispatch_(sema|wait)"),
    ("event lines (diagnostics, history, journald)", r"DiagnosticEvent|EventSink|EventLine|EventHistory|StderrRecord|"
     r"Journald|JournalFields|sd_journal|DiagnosticRecord"),
    ("app event (receive streams, didFinish)", r"followReceive|userInfoData|showPages|followInbox|followFinished|"
     r"finishedData|InboxPage|pendingInbox|unreportedFinished"),
    ("control JSON (parse, encode)", r"JSONParser|JSONValue|ControlCodec|ControlRequest|ControlResponse|PlistJSON|"
     r"JSONEncoder|JSONDecoder|JSONSerialization|JSONWriter"),
    ("frame (encode, decode, CRC-32C, plist codec)", r"FrameEncoder|FrameDecoder|FrameBodyDecoder|CRC32C|crc32c|"
     r"PlistCodec|EncodedDictionary|ByteWriter|ByteReader"),
    ("store (SQLite, GRDB, commit)", r"sqlite3|GRDB|PairStore|StoreDatabase|GroupCommit"),
    ("socket I/O (NIO, kernel)", r"unix_stream|sock_(read|write|sendmsg|recvmsg)|__sys_(sendmsg|recvmsg)|"
     r"ksys_(read|write)|do_writev|PendingWritesManager|BaseStreamSocketChannel|UnixSocketConnection"),
    ("control handling", r"ControlHandler|ControlServer|ControlConnection|ControlSession"),
    # Our types only (mangled names carry the module): NIO has Channel and StateMachine types of its own.
    ("engine (channels, links, machines)", r"WatchPair(Core|Host|Transport|Daemon)\w*?"
     r"(PairEngine|Channel|LinkSession|LinkDriver|Machine|UserInfoSender|UserInfoReceiver)"),
    ("task hand-offs (Swift concurrency, dispatch)", r"swift_task|swift_job|AsyncTask|runJobInEstablished|TaskAllocator|"
     r"swift_continuation|libdispatch\.so|popTasksLocked|swift::StackAllocator"),
    ("NIO (pipeline, async channel bridges, its loop)", r"NIOCore|NIOPosix|NIOConcurrencyHelpers|_NIO"),
]
ALLOCATION = ("allocation, reference counting (no stage above)",
              re.compile(r"swift_(retain|release|allocObject|deallocObject|bridgeObject)|malloc|\bfree\b|_int_(malloc|free)|"
                         r"swift_slowAlloc|swift_slowDealloc"))
COMPILED = [(name, re.compile(pattern)) for name, pattern in STAGES]
OTHER = "other (runtime, Foundation, unattributed)"


def samples(lines):
    """Yields each sample's frames (symbol + dso), leaf first, from `perf script` output."""
    frames = []
    for line in lines:
        if not line.strip():
            if frames:
                yield frames
            frames = []
            continue
        if line[0] in " \t":
            frames.append(line.strip())
        elif frames:
            yield frames
            frames = []
    if frames:
        yield frames


def stage_of(frames):
    # Anything under fsync is the fsync, also the context switch while it waits for the disk.
    if any(COMPILED[0][1].search(frame) for frame in frames):
        return COMPILED[0][0]
    for frame in frames:
        for name, pattern in COMPILED:
            if pattern.search(frame):
                return name
    if frames and ALLOCATION[1].search(frames[0]):
        return ALLOCATION[0]
    return OTHER


def profile(lines, leaves=None):
    counts = collections.Counter()
    for frames in samples(lines):
        stage = stage_of(frames)
        counts[stage] += 1
        if leaves is not None and stage == OTHER and frames:
            leaves[re.sub(r"^\S+\s+", "", frames[0])[:100]] += 1
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, required=True, help="transfers or messages in the profiled window")
    parser.add_argument("--hz", type=float, default=499, help="perf record frequency (wcbench: 499)")
    parser.add_argument("--script", action="store_true", help="inputs are saved `perf script` text, not perf.data")
    parser.add_argument("--unattributed", type=int, default=0, metavar="N",
                        help="also list the N most frequent leaf frames of the samples no stage claimed")
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args()
    columns = []
    leaves = collections.Counter()
    for path in args.inputs:
        if args.script:
            with open(path, errors="replace") as handle:
                columns.append(profile(handle, leaves))
        else:
            text = subprocess.run(
                ["perf", "script", "-i", path, "-F", "ip,sym,dso"],
                capture_output=True, text=True, errors="replace", check=True).stdout
            columns.append(profile(text.splitlines(), leaves))
    names = [name for name, _ in STAGES] + [ALLOCATION[0], OTHER]
    per_item = lambda n: n / args.hz / args.count * 1e6
    heads = [p.rsplit("/", 1)[-1].removesuffix(".data").removesuffix(".txt") for p in args.inputs]
    print(f"{'µs of CPU per item (' + str(args.count) + ' items, ' + str(int(args.hz)) + ' Hz)':48} " + " ".join(f"{h[-28:]:>28}" for h in heads))
    for name in names:
        print(f"{name[:48]:48} " + " ".join(f"{per_item(c[name]):>28.1f}" for c in columns))
    print(f"{'total':48} " + " ".join(f"{per_item(sum(c.values())):>28.1f}" for c in columns))
    print(f"{'samples':48} " + " ".join(f"{sum(c.values()):>28}" for c in columns))
    for leaf, count in leaves.most_common(args.unattributed):
        print(f"  unattributed leaf, all profiles: {count:6} {leaf}")


if __name__ == "__main__":
    main()
