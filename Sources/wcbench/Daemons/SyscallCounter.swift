import Foundation
import Glibc

/// Exact counts of `fsync`/`fdatasync` calls made by one process over a window, with `perf stat` on the
/// syscall tracepoints, and of its context switches (each a thread that slept and was woken: the
/// hand-offs between threads); counting mode, no sampling, negligible cost to the daemon.
///
/// Needs `perf` and permission to use tracepoints (root, or `perf_event_paranoid` ≤ -1); without them
/// ``init`` throws and the caller reports the count as unavailable. Threads the daemon creates after
/// attaching are counted too (perf's counters are inherited).
final class SyscallCounter {
    /// The syscalls counted.
    static let syscalls = ["syscalls:sys_enter_fsync", "syscalls:sys_enter_fdatasync"]
    /// The software event counted beside them.
    static let contextSwitches = "context-switches"
    static let events = syscalls + [contextSwitches]

    private let perf: PerfProcess
    private let outputPath: String

    /// Attaches perf to `pid`, counters off.
    init(perf path: String, pid: pid_t, directory: String, name: String) throws(BenchError) {
        outputPath = "\(directory)/\(name).perf-stat"
        perf = try PerfProcess(
            perf: path, arguments: ["stat", "-x", ",", "-o", outputPath, "-e", Self.events.joined(separator: ",")],
            pid: pid, directory: directory, name: name)
    }

    /// The fsync and fdatasync calls of `counts` (as ``finish()`` returns them), together.
    static func fsyncs(_ counts: [String: Int]) -> Int {
        counts.filter { $0.key != contextSwitches }.values.reduce(0, +)
    }

    /// Starts counting.
    func enable() throws(BenchError) { try perf.enable() }

    /// Stops counting and returns the count per syscall (`fsync`, `fdatasync`) and `context-switches`.
    func finish() throws(BenchError) -> [String: Int] {
        try perf.stop()
        guard let text = try? String(contentsOfFile: outputPath, encoding: .utf8) else {
            throw BenchError("perf wrote no counts; see \(perf.logPath)")
        }
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3, let event = Self.events.first(where: { fields[2].hasPrefix($0) }) else { continue }
            let name = event.hasPrefix("syscalls:") ? String(event.dropFirst("syscalls:sys_enter_".count)) : event
            counts[name] = Int(fields[0]) ?? 0  // "<not counted>": nothing happened while enabled
        }
        guard counts.count == Self.events.count else {
            throw BenchError("perf output has no syscall counts: \(text.prefix(300))")
        }
        return counts
    }
}
