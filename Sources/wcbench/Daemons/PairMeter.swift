import Glibc
import WatchPairWire

/// What both daemons spent over a measured window: CPU, bytes written to storage, fsyncs, context
/// switches, store commits and reads.
///
/// fsyncs come from ``SyscallCounter`` (perf) when it works; store commits and reads from the
/// `storeCommits` and `storeReads` fields of `status` when the daemons report them (older builds do not). Either may be unavailable; the report then says so. With a
/// profile directory, `perf record -g` runs on both daemons over the same window (`<name>-<daemon>.data`).
final class PairMeter {
    /// Per daemon use over the window.
    struct Usage {
        /// CPU seconds, per role.
        var cpuSeconds: [Role: Double] = [:]
        /// Bytes written to storage, per role.
        var storageWriteBytes: [Role: Int] = [:]
        /// `fsync` + `fdatasync` calls, per role (nil: perf unavailable).
        var fsyncs: [Role: Int]?
        /// Context switches, per role (nil: perf unavailable).
        var contextSwitches: [Role: Int]?
        /// Store counters of `status` (``PairMeter/storeCounters``), per field and role; a field the
        /// daemons do not report is absent.
        var storeCounts: [String: [Role: Int]] = [:]
        /// CPU seconds of this process (the bench's own clients: the sending and receiving apps).
        var clientCPUSeconds: Double = 0

        /// Sums over both daemons.
        var totalCPU: Double { cpuSeconds.values.reduce(0, +) }
        var totalWriteBytes: Int { storageWriteBytes.values.reduce(0, +) }
        var totalFsyncs: Int? { fsyncs.map { $0.values.reduce(0, +) } }
        var totalContextSwitches: Int? { contextSwitches.map { $0.values.reduce(0, +) } }
        /// A store counter summed over both daemons; nil when they do not report it.
        func total(_ field: String) -> Int? { storeCounts[field].map { $0.values.reduce(0, +) } }
    }

    /// The store's counters in `status`: write transactions that changed rows, and read transactions.
    static let storeCounters = ["storeCommits", "storeReads"]

    private let pair: DaemonPair
    private var counters: [Role: SyscallCounter] = [:]
    private var recorders: [PerfProcess] = []
    private var before: [Role: ProcessStats] = [:]
    private var countsBefore: [String: [Role: Int]] = [:]
    private var clientCPUBefore: Double = 0
    /// Why fsyncs could not be counted, if they could not.
    private(set) var fsyncProblem: String?

    /// Attaches the syscall counters (disabled) to both daemons, which must be running, when
    /// `countFsyncs`; and the profilers when `profiling` is given.
    init(
        pair: DaemonPair, perf: String?, name: String, countFsyncs: Bool = true, profiling: Profiling? = nil
    ) throws(BenchError) {
        self.pair = pair
        guard let perf else {
            fsyncProblem = "perf is not installed"
            if profiling != nil { throw BenchError("--profile needs perf") }
            return
        }
        if countFsyncs {
            do throws(BenchError) {
                for role in Role.allCases {
                    counters[role] = try SyscallCounter(
                        perf: perf, pid: try pair.process(role).pid, directory: pair.directory, name: "\(name)-\(role.daemonName)")
                }
            } catch {
                counters = [:]
                fsyncProblem = "perf failed: \(error)"
            }
        }
        if let profiling {
            for role in Role.allCases {
                recorders.append(try PerfProcess(
                    perf: perf,
                    arguments: profiling.recordArguments("\(name)-\(role.daemonName)"),
                    pid: try pair.process(role).pid, directory: pair.directory, name: "\(name)-\(role.daemonName)-record"))
            }
        }
    }

    /// Starts the window.
    func begin() throws(BenchError) {
        clientCPUBefore = Self.ownCPUSeconds()
        for role in Role.allCases {
            before[role] = try pair.stats(role)
            for field in Self.storeCounters {
                if let count = try pair.statusInteger(role, field) { countsBefore[field, default: [:]][role] = count }
            }
        }
        do throws(BenchError) {
            for counter in counters.values { try counter.enable() }
        } catch {
            counters = [:]
            fsyncProblem = "perf failed: \(error)"
        }
        for recorder in recorders { try recorder.enable() }
    }

    /// Ends the window and returns what was used in it.
    func end() throws(BenchError) -> Usage {
        var usage = Usage()
        for recorder in recorders { try recorder.stop() }
        recorders = []
        if !counters.isEmpty {
            do throws(BenchError) {
                var fsyncs: [Role: Int] = [:]
                var switches: [Role: Int] = [:]
                for (role, counter) in counters {
                    let counts = try counter.finish()
                    switches[role] = counts[SyscallCounter.contextSwitches] ?? 0
                    fsyncs[role] = SyscallCounter.fsyncs(counts)
                }
                usage.fsyncs = fsyncs
                usage.contextSwitches = switches
            } catch {
                fsyncProblem = "perf failed: \(error)"
            }
            counters = [:]
        }
        usage.clientCPUSeconds = Self.ownCPUSeconds() - clientCPUBefore
        for role in Role.allCases {
            let after = try pair.stats(role)
            usage.cpuSeconds[role] = after.cpuSeconds - (before[role]?.cpuSeconds ?? 0)
            usage.storageWriteBytes[role] = after.storageWriteBytes - (before[role]?.storageWriteBytes ?? 0)
        }
        for (field, before) in countsBefore where before.count == Role.allCases.count {
            var counts: [Role: Int] = [:]
            for role in Role.allCases {
                if let now = try pair.statusInteger(role, field), let then = before[role] { counts[role] = now - then }
            }
            if counts.count == Role.allCases.count { usage.storeCounts[field] = counts }
        }
        return usage
    }

    /// User and system CPU seconds of this process so far (every thread: the clients run in it).
    static func ownCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
