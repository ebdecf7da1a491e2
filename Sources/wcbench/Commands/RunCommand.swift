import ArgumentParser
import Foundation
import Glibc
import WatchPairWire

/// `wcbench [--quick] [--json PATH] ...`: runs the sections and prints the table.
///
/// Exit status: 0 when every section ran (whether or not targets were met: timings are reported, never
/// asserted), 1 when a section failed, 2 for a usage error (missing daemons, bad option).
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the benchmark (the default).",
        discussion: """
            Starts the real phoned and watchd in a temporary directory, drives them through their control \
            sockets (the layer section: two apps on the WatchConnectivity module instead), and prints a \
            table (value, target, ratio to this machine's limit, met/missed). \
            Sections: \(Section.allCases.map(\.rawValue).joined(separator: ", ")).
            """)

    @Flag(help: "Small counts for every section (CI: keeps the benchmark from rotting; numbers are noisy).")
    var quick = false

    @Option(help: "Also write every number, and the machine, as JSON to this file.")
    var json: String?

    @Option(help: "Directory holding phoned and watchd (default: the directory of this executable).")
    var binDir: String?

    @Option(help: "Parent of the temporary directory; the state directories, and so the file system measured, live there.")
    var tmp = "/tmp"

    @Option(
        help: "Comma-separated sections to run (default: all). Ratios need baseline.",
        transform: { text in
            try text.split(separator: ",").map { name in
                guard let section = Section(rawValue: String(name)) else {
                    throw ValidationError("unknown section '\(name)'; known: \(Section.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return section
            }
        })
    var only: [Section]?

    @Flag(help: "Keep the temporary directory (configs, daemon logs, stores).")
    var keep = false

    @Option(help: "Run each daemon under this command, e.g. \"valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p\" (time limits are multiplied by 50; the numbers are then only good for the profile).")
    var daemonWrapper: String?

    @Option(help: "Record perf profiles (perf record --call-graph dwarf, 499 Hz) of both daemons during each measured window (and of both apps in the layer and wcmodule sections) into this directory (slows the daemons: do not publish those numbers).")
    var profile: String?

    @Flag(help: "With --profile: record every context switch of the profiled processes with its call chain (perf's sched:sched_switch) instead of CPU samples; scripts/bench/switches.py tells which code slept or was preempted, per item.")
    var profileSwitches = false

    @Option(help: "The deepest backlog the growth section queues (1,000, 10,000, 100,000, 1,000,000: the depths up to this one).")
    var growthMax = 100_000

    @Flag(help: "No progress lines on stderr.")
    var quiet = false

    @Flag(help: "Configure both daemons as background launches (as socket activation starts them), so their idle-exit monitor runs as in production; a daemon left alone longer than timeouts.idleExit exits.")
    var backgroundLaunch = false

    @Flag(help: "Also measure a durable local broker doing the same jobs (Debian's mosquitto, MQTT QoS 1, its two persistence modes) and print WatchPair's ratio to it.")
    var peers = false

    /// The sections, in the order they run.
    enum Section: String, CaseIterable, ExpressibleByArgument {
        case baseline, message, userInfo, applicationContext, drain, coldLaunch, memory, layer
        case file
        case sync
        /// Two apps on the WatchConnectivity module: the message round trip next to the raw ping-pong.
        case wcmodule
        /// Cost per transfer by queue depth and by payload size.
        case growth
        /// Message round trips and userInfo throughput of 1, 2 and 4 pairs at once: how a host divides.
        case pairs
        /// mosquitto doing the same jobs (only with `--peers`, or named in `--only`).
        case peers
    }

    func validate() throws {
        if profileSwitches, profile == nil { throw ValidationError("--profile-switches needs --profile DIR (where the recordings go)") }
    }

    func run() throws {
        Cleanup.shared.installSignalHandling()
        let binaries = try locateBinaries()
        var template = Array("\(tmp)/wcbench.XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw ValidationError("cannot create a temporary directory in \(tmp): \(String(cString: strerror(errno)))")
        }
        let runDirectory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard runDirectory.utf8.count + "/p10/watchd.sock".utf8.count <= UnixSocketAddress.maxPathBytes else {
            rmdir(runDirectory)
            throw ValidationError("--tmp \(tmp) is too long for socket paths (at most ~90 bytes)")
        }
        Cleanup.shared.setDirectory(runDirectory, keep: keep)

        let started = Monotonic.now()
        let report = BenchReport(
            command: CommandLine.arguments.joined(separator: " "), quick: quick,
            machine: MachineInfo.current(stateDirectory: runDirectory),
            binaries: ["phoned": binaries.phoned, "watchd": binaries.watchd, "perf": binaries.perf ?? "absent",
                       "systemd-socket-activate": binaries.socketActivate ?? "absent"],
            counts: quick ? .quick : .full)
        let context = BenchContext(
            counts: quick ? .quick : .full, quick: quick, binaries: binaries, runDirectory: runDirectory,
            report: report, verbose: !quiet, launch: backgroundLaunch ? "background" : "auto")
        if binaries.perf == nil { report.notes.append("perf not found: fsyncs per transfer are not counted") }
        if backgroundLaunch {
            report.notes.append("the daemons ran as background launches (--background-launch): their idle-exit monitor ran")
        }
        if !binaries.wrapper.isEmpty {
            report.notes.append("the daemons ran under \(binaries.wrapper.joined(separator: " ")): the numbers are not comparable")
        }
        if let profile {
            try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
            context.profiling = Profiling(directory: profile, switches: profileSwitches)
            report.notes.append("perf record ran during the measurements (--profile \(profile)): the numbers are slowed by profiling")
        }

        let wanted = Set(only ?? Section.allCases.filter { $0 != .peers || peers }).union(peers ? [.peers] : [])
        for section in Section.allCases where wanted.contains(section) {
            do throws(BenchError) {
                switch section {
                case .file: try FileBench(context: context).run()
                case .sync: try SyncBench(context: context).run()
                case .growth: try GrowthBench(context: context, maxDepth: growthMax).run()
                case .baseline: try BaselineBench(context: context).run()
                case .message: try MessageBench(context: context).run()
                case .userInfo: try UserInfoBench(context: context).run()
                case .applicationContext: try ContextBench(context: context).run()
                case .drain: try DrainBench(context: context).run()
                case .coldLaunch: try ColdLaunchBench(context: context).run()
                case .memory: try MemoryBench(context: context).run()
                case .layer: try LayerBench(context: context).run()
                case .wcmodule: try WCModuleBench(context: context).run()
                case .pairs: try PairsBench(context: context).run()
                case .peers: try PeersBench(context: context).run()
                }
            } catch {
                context.progress("\(section.rawValue) FAILED: \(error)")
                report.fail(section.rawValue, error)
            }
        }

        report.durationSeconds = Monotonic.seconds(started, Monotonic.now())
        report.machine.loadAverageAtEnd = MachineInfo.loadAverage()
        if let busy = report.machine.busyNote { report.notes.append(busy) }
        let keepDirectory = keep || !report.errors.isEmpty
        if keepDirectory { report.notes.append("temporary directory kept: \(runDirectory) (daemon logs: p*/<daemon>.log)") }
        print(ReportTable.render(report))
        if let json { try report.writeJSON(to: json) }
        if !keepDirectory { try? FileManager.default.removeItem(atPath: runDirectory) }
        if !report.errors.isEmpty { throw ExitCode(1) }
    }

    /// phoned and watchd from `--bin-dir` (or next to wcbench); perf and systemd-socket-activate from PATH.
    private func locateBinaries() throws -> Binaries {
        let selfPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let directory = binDir ?? (selfPath as NSString).deletingLastPathComponent
        let phoned = "\(directory)/phoned"
        let watchd = "\(directory)/watchd"
        for path in [phoned, watchd] where access(path, X_OK) != 0 {
            throw ValidationError("\(path) is not an executable; build the daemons first (swift build -c release) or pass --bin-dir")
        }
        var wrapper = (daemonWrapper ?? "").split(separator: " ").map(String.init)
        if let first = wrapper.first, !first.contains("/") {
            guard let found = Self.findInPath(first) else { throw ValidationError("--daemon-wrapper: \(first) not found in PATH") }
            wrapper[0] = found
        }
        return Binaries(
            phoned: phoned, watchd: watchd, wcbench: selfPath,
            socketActivate: Self.findInPath("systemd-socket-activate"), perf: Self.findInPath("perf"), wrapper: wrapper)
    }

    private static func findInPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where access("\(directory)/\(name)", X_OK) == 0 {
            return "\(directory)/\(name)"
        }
        return nil
    }
}
