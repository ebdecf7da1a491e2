/// What `--profile` records, and where: one `perf record` file per measured window and process.
struct Profiling: Sendable {
    /// The directory the `.data` files go to.
    let directory: String
    /// Every context switch with its call chain (`--profile-switches`) instead of CPU samples at 499 Hz:
    /// which code put a thread to sleep, or was preempted, per transfer (`scripts/bench/switches.py`).
    let switches: Bool

    /// `perf record`'s arguments writing `<name>.data`.
    func recordArguments(_ name: String) -> [String] {
        // DWARF unwinding: libsqlite3, libc and the Swift runtime have no frame pointers.
        let events = switches ? ["-e", "sched:sched_switch"] : ["-F", "499"]
        return ["record", "--call-graph", "dwarf,16384"] + events + ["-o", "\(directory)/\(name).data"]
    }
}
