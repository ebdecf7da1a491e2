import Foundation
import Glibc

/// What every section needs: counts, executables, the run's directory, the report, and the baselines
/// measured earlier in the same run.
final class BenchContext {
    /// The work per section.
    let counts: Counts
    /// Whether this is a `--quick` run.
    let quick: Bool
    /// The executables.
    let binaries: Binaries
    /// The run's temporary directory; every pair and helper file lives under it.
    let runDirectory: String
    /// Where the numbers go.
    let report: BenchReport
    /// This machine's limits, measured first.
    var baselines = Baselines()
    /// Progress lines on stderr (the table goes to stdout).
    let verbose: Bool
    /// The `perf record` profiles of the daemons (`--profile`), or nil.
    var profiling: Profiling?
    /// The daemons' `launch` setting: `auto` (started directly: foreground), or `background`
    /// (`--background-launch`: idle exit runs, as after a socket activation).
    let launch: String
    private var pairs = 0

    init(
        counts: Counts, quick: Bool, binaries: Binaries, runDirectory: String, report: BenchReport, verbose: Bool,
        launch: String = "auto"
    ) {
        self.counts = counts
        self.quick = quick
        self.binaries = binaries
        self.runDirectory = runDirectory
        self.report = report
        self.verbose = verbose
        self.launch = launch
    }

    /// The longest any single phase may take before it is abandoned as failed (a safety net: a hung
    /// daemon must not hang CI).
    var phaseTimeout: Double { (quick ? 30 : 180) * binaries.slowdown }

    /// A deadline `phaseTimeout` from now.
    func phaseDeadline() -> UInt64 { Monotonic.deadline(seconds: phaseTimeout) }

    /// A new daemon pair in its own directory (`p1`, `p2`, ...), not started.
    func makePair(durability: String = "power", extra: [String: String] = [:]) throws(BenchError) -> DaemonPair {
        pairs += 1
        return try DaemonPair(
            directory: "\(runDirectory)/p\(pairs)", binaries: binaries, durability: durability, launch: launch, extra: extra)
    }

    /// Notes in the report that phoned's didFinish stream had to be re-opened (an engine issue, see
    /// ``FinishedApp``).
    func noteStalls(of app: FinishedApp, in section: String) {
        guard app.stalls > 0 else { return }
        report.notes.append(
            "\(section): phoned's didFinish stream stopped showing pending notices \(app.stalls) time(s) (more than 256 pending, "
                + "acks do not wake the stream); wcbench re-opened it")
    }

    /// A progress line on stderr.
    func progress(_ text: String) {
        guard verbose else { return }
        FileHandle.standardError.write(Data("wcbench: \(text)\n".utf8))
    }
}

/// The machine's limits from the baseline section, which later sections compare against.
struct Baselines {
    /// Raw ping-pong round trip (µs) by payload size.
    var pingPong: [Int: LatencySummary] = [:]
    /// Round trip (µs) through two relaying processes that do no work, by how they wait and payload size.
    var relay: [RelayLoop: [Int: LatencySummary]] = [:]
    /// CPU (µs) both relaying processes spend per round trip, by how they wait and payload size: the kernel's
    /// share of four crossings (socket calls, wake-ups), which the daemons pay too.
    var relayCPU: [RelayLoop: [Int: Double]] = [:]
    /// Raw round trips per second with 64 in flight, 64 B payloads.
    var pipelinedRate: Double?
    /// A block to another thread and back (two wake-ups), µs.
    var handOff: LatencySummary?
    /// write + fdatasync per second (4 KiB, overwriting).
    var fdatasyncRate: Double?
    /// write + fdatasync per second of two writers at once (one file each), together.
    var fdatasyncTwoWritersTotal: Double?
}
