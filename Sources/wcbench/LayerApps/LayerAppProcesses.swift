import Foundation
import Glibc

/// Starts the app processes of a section that runs on the WatchConnectivity module (`wcbench
/// _layer-app`): each with its side's environment (``environment(side:in:)``) in the section's own
/// directory, its output in `<side>.log` there. The layer and wcmodule sections use it.
struct LayerAppProcesses {
    let context: BenchContext
    /// `<run directory>/<section>`: both apps' sockets and state directories.
    let directory: String

    /// Creates the section's directory.
    init(context: BenchContext, section: String) throws(BenchError) {
        self.context = context
        directory = "\(context.runDirectory)/\(section)"
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { throw BenchError.system("cannot create \(directory)", errno: errno) }
    }

    /// An app that does not talk to wcbench (the watch app, `--role responder`).
    func start(_ appRole: String, _ extra: [String] = [], side: String) throws(BenchError) -> ChildProcess {
        try ChildProcess.spawn(
            context.binaries.wcbench, ["_layer-app", "--role", appRole] + extra, name: "\(side) app (\(appRole))",
            environment: Self.environment(side: side, in: directory), output: "\(directory)/\(side).log")
    }

    /// An app that measures and talks to wcbench line by line on its stdin and stdout (the phone app);
    /// its stderr goes to `<side>.log`.
    func startMeasuring(_ appRole: String, _ extra: [String], side: String) throws(BenchError) -> (ChildProcess, AppChannel) {
        let (parentEnd, childEnd) = try UnixSockets.pair()
        defer { close(childEnd) }
        let process: ChildProcess
        do {
            process = try ChildProcess.spawn(
                context.binaries.wcbench, ["_layer-app", "--role", appRole] + extra, name: "\(side) app (\(appRole))",
                environment: Self.environment(side: side, in: directory), output: "\(directory)/\(side).log",
                keep: [(childEnd, 0), (childEnd, 1)])
        } catch {
            close(parentEnd)
            throw error
        }
        return (process, AppChannel(descriptor: parentEnd, name: "the \(side) app (see \(directory)/\(side).log)"))
    }

    /// `perf record` attached to each app for one measured window, with `--profile` (none without):
    /// `<window>-<side>.data` in the profile directory. Enable them as the window opens, stop them as it closes.
    func profile(_ apps: [(side: String, process: ChildProcess)], window: String) throws(BenchError) -> [PerfProcess] {
        guard let profiling = context.profiling else { return [] }
        guard let perf = context.binaries.perf else { throw BenchError("--profile needs perf") }
        var profilers: [PerfProcess] = []
        for (side, process) in apps {
            profilers.append(try PerfProcess(
                perf: perf,
                arguments: profiling.recordArguments("\(window)-\(side)"),
                pid: process.pid, directory: directory, name: "\(window)-\(side)-record"))
        }
        return profilers
    }

    /// The environment of an app on the WatchConnectivity module: side, sockets, state.
    static func environment(side: String, in directory: String) -> [String: String] {
        ChildProcess.environment([
            "WATCHPAIR_ROLE": side, "WATCHPAIR_RUN_DIR": directory,
            "WATCHPAIR_STATE_DIR": "\(directory)/\(side == "phone" ? "phoned" : "watchd")",
        ])
    }

    /// The JSON after a protocol word of a measuring app.
    static func decode<T: Decodable>(_ type: T.Type, _ text: String, from app: String) throws(BenchError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw BenchError("\(app) sent an unreadable line: \(error)")
        }
    }
}
