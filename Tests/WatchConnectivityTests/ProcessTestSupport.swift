import Foundation
import Synchronization
import Testing
import WatchPairControlClient
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// Where the built executables are: next to the test bundle (`swift build` builds them all there), or in
/// `$WATCHPAIR_BIN_DIR`.
enum Binaries {
    static let productsDirectory: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().path
    }()

    /// The path of executable `name`, if built.
    static func path(_ name: String) -> String? {
        let candidates = [productsDirectory] + (ProcessInfo.processInfo.environment["WATCHPAIR_BIN_DIR"].map { [$0] } ?? [])
        return candidates.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func available(_ names: String...) -> Bool { names.allSatisfy { path($0) != nil } }
}

/// Lines a child process writes, collected as they arrive, read in order by tests.
final class LineLog: Sendable {
    private let lines = Mutex<[String]>([])
    private let partial = Mutex<[UInt8]>([])
    private let arrived = AsyncSignal()

    func append(_ data: Data) {
        let complete = partial.withLock { buffer -> [String] in
            buffer.append(contentsOf: data)
            var found: [String] = []
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                found.append(String(decoding: buffer[..<newline], as: UTF8.self))
                buffer.removeSubrange(...newline)
            }
            return found
        }
        guard !complete.isEmpty else { return }
        lines.withLock { $0 += complete }
        arrived.fire()
    }

    var all: [String] { lines.withLock { $0 } }

    /// Waits for a line (after the first `after` lines) satisfying `match`; returns it and its index.
    @discardableResult
    func waitFor(
        after: Int = 0, timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation,
        _ what: String, _ match: @escaping @Sendable (String) -> Bool
    ) async -> (line: String, index: Int)? {
        let found = try? await withTimeout(timeout, "line \(what)") {
            try await self.arrived.first { () -> (String, Int)? in
                let lines = self.all
                guard lines.count > after, let index = lines[after...].firstIndex(where: match) else { return nil }
                return (lines[index], index)
            }
        }
        if found == nil {
            Issue.record("no line \(what) within \(timeout); got:\n\(all.suffix(30).joined(separator: "\n"))", sourceLocation: sourceLocation)
        }
        return found.map { (line: $0.0, index: $0.1) }
    }
}

/// A child process with its stdin open and its stdout and stderr collected line by line.
final class ChildProcess: @unchecked Sendable {
    let name: String
    let process = Process()
    let stdout = LineLog()
    let stderr = LineLog()
    private let input = Pipe()
    private let exited = DispatchSemaphore(value: 0)
    /// How long `stop()` waits after SIGTERM before SIGKILL.
    static let stopGracePeriod: DispatchTimeInterval = .seconds(5)

    init(_ executable: String, arguments: [String] = [], environment: [String: String]) throws {
        name = URL(fileURLWithPath: arguments.last ?? executable).lastPathComponent
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("WATCHPAIR_") && !$0.key.hasPrefix("LISTEN_") }
        inherited.merge(environment) { $1 }
        process.environment = inherited
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        Self.drain(output.fileHandleForReading, into: stdout)
        Self.drain(errors.fileHandleForReading, into: stderr)
    }

    /// Reads `handle` on a thread of its own with blocking reads until end of file. Not with
    /// `readabilityHandler`: its dispatch read sources, set up and torn down by many tests at once, crash
    /// libdispatch's event loop on Linux (`_dispatch_event_loop_drain`, swift-corelibs-libdispatch
    /// issue 949), as a full run here did; the process tests' harness reads the same way.
    private static func drain(_ handle: FileHandle, into log: LineLog) {
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                log.append(data)
            }
        }
    }

    /// Types a command on the app's stdin.
    func type(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits for an app event line `event {json}` whose payload satisfies `match`.
    @discardableResult
    func event(
        _ event: String, after: Int = 0, sourceLocation: SourceLocation = #_sourceLocation,
        where match: @escaping @Sendable ([String: Any]) -> Bool = { _ in true }
    ) async -> (payload: [String: Any], index: Int)? {
        let found = await stdout.waitFor(after: after, sourceLocation: sourceLocation, "\(name): \(event)") { line in
            guard line.hasPrefix(event + " ") else { return false }
            return Self.payload(line).map(match) ?? false
        }
        return found.flatMap { found in Self.payload(found.line).map { ($0, found.index) } }
    }

    static func payload(_ line: String) -> [String: Any]? {
        guard let space = line.firstIndex(of: " ") else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line[line.index(after: space)...].utf8))) as? [String: Any]
    }

    /// SIGTERM, then waits for the exit; SIGKILL after `stopGracePeriod` (a process that does not stop is
    /// not what these tests check, but it must not hang them). Idempotent.
    ///
    /// Foundation's `Process` sometimes never reports an exit when several tests spawn at once (the
    /// child stays a zombie): so the wait also reaps the child itself, and never blocks without a bound.
    func stop() {
        let pid = process.processIdentifier
        if process.isRunning { kill(pid, SIGTERM) }
        if !waitForExit(within: Self.stopGracePeriod) {
            FileHandle.standardError.write(Data("note: \(name) (pid \(pid)) did not stop on SIGTERM; killing it\n".utf8))
            kill(pid, SIGKILL)
            _ = waitForExit(within: .seconds(10))
        }
    }

    /// Whether the child exited within `limit`: told by `Process`, or reaped here (`waitpid` answers for
    /// a zombie that `Process` did not see, and ECHILD once anyone reaped it).
    private func waitForExit(within limit: DispatchTimeInterval) -> Bool {
        let deadline = DispatchTime.now() + limit
        while DispatchTime.now() < deadline {
            if exited.wait(timeout: .now() + .milliseconds(50)) == .success {
                exited.signal()  // Later calls see it too.
                return true
            }
            var status: Int32 = 0
            let reaped = waitpid(process.processIdentifier, &status, WNOHANG)
            if reaped == process.processIdentifier || (reaped < 0 && errno == ECHILD) { return true }
        }
        return false
    }
}

/// A client of a daemon's control socket (docs/ControlProtocol.md): requests and streamed events, as
/// Foundation objects.
///
/// A face of the control client's `AsyncControlClientConnection` (its thread owns the socket): a request
/// is written as one JSON line and its response matched by id; an event is the first unread one that
/// matches, taken so a later wait finds the next. Lines no wait has taken stay for later ones. Each wait
/// has a time limit; a missed one is recorded as an issue.
final class ControlClient: Sendable {
    /// How long a request or event is waited for.
    static let timeout: Duration = .seconds(20)
    private let connection: AsyncControlClientConnection
    private let nextId = Mutex<Int64>(0)

    init(path: String) async throws {
        connection = try await AsyncControlClientConnection.connect(to: path)
    }

    /// Sends a request (its `id` is added) and returns the response's `result`; records an issue when the
    /// response is not `ok` or does not come.
    @discardableResult
    func request(_ fields: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any]? {
        let id = nextId.withLock { value -> Int64 in
            value += 1
            return value
        }
        var request = fields
        request["id"] = id
        try await connection.write(Array(try JSONSerialization.data(withJSONObject: request)) + [UInt8(ascii: "\n")])
        let what = "response to \(fields["op"] ?? "?")"
        guard let response = await wait(what, sourceLocation: sourceLocation, { $0.isResponse(to: id) }) else { return nil }
        guard response.ok == true else {
            Issue.record("control request \(fields) failed: \(response.line)", sourceLocation: sourceLocation)
            return nil
        }
        return Self.object(response.result) ?? [:]
    }

    /// Waits for a stream event of `kind` whose `data` satisfies `match`, and takes it.
    @discardableResult
    func event(
        _ kind: String, sourceLocation: SourceLocation = #_sourceLocation,
        where match: @escaping @Sendable ([String: Any]) -> Bool = { _ in true }
    ) async -> [String: Any]? {
        let event = await wait("control event \(kind)", sourceLocation: sourceLocation) { line in
            line.event == kind && Self.object(line.data).map(match) ?? false
        }
        return event.flatMap { Self.object($0.data) }
    }

    /// The first unread line satisfying `match`, taken; nil (and an issue) when none came within ``timeout``.
    private func wait(
        _ what: String, sourceLocation: SourceLocation, _ match: @escaping @Sendable (ControlResponse) -> Bool
    ) async -> ControlResponse? {
        do {
            return try await withTimeout(Self.timeout, what) { [connection] in try await connection.next(where: match) }
        } catch {
            Issue.record("no \(what) within \(Self.timeout): \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// A JSON object as Foundation's; nil for anything else.
    static func object(_ value: JSONValue?) -> [String: Any]? {
        value.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.canonicalUTF8))) as? [String: Any] }
    }

    func close() async {
        await connection.close()
    }
}

/// A daemon (`phoned`/`watchd`) running unprivileged with its sockets and state in `directory`.
func startDaemon(_ daemon: String, in directory: String) async throws -> ChildProcess {
    let peer = daemon == "phoned" ? "watchd" : "phoned"
    let process = try ChildProcess(
        Binaries.path(daemon)!,
        environment: [
            "WATCHPAIR_PATHS_LINK": "\(directory)/\(daemon).sock", "WATCHPAIR_PATHS_PEER_LINK": "\(directory)/\(peer).sock",
            "WATCHPAIR_PATHS_CONTROL": "\(directory)/\(daemon).ctl", "WATCHPAIR_PATHS_PEER_CONTROL": "\(directory)/\(peer).ctl",
            "WATCHPAIR_PATHS_STATE": "\(directory)/\(daemon)", "WATCHPAIR_DURABILITY": "process",
            "WATCHPAIR_LAUNCH": "foreground", "WATCHPAIR_LOG_DESTINATION": "stderr",
        ])
    // The control socket is bound before the engine reports itself activated.
    await process.stderr.waitFor("\(daemon) activated") { $0.contains("sessionActivated") }
    return process
}

/// The environment of an example app configured for `role` in `directory`.
func exampleEnvironment(role: String, in directory: String) -> [String: String] {
    [
        "WATCHPAIR_ROLE": role, "WATCHPAIR_RUN_DIR": directory,
        "WATCHPAIR_STATE_DIR": "\(directory)/\(role == "phone" ? "phoned" : "watchd")", "WATCHPAIR_DURABILITY": "process",
    ]
}

/// An example app built on WatchConnectivity, configured for `role` in `directory`.
func startExample(_ name: String, role: String, in directory: String) throws -> ChildProcess {
    try ChildProcess(Binaries.path(name)!, environment: exampleEnvironment(role: role, in: directory))
}

/// The suites that run example apps as processes, one at a time: Foundation's `Process` (which these
/// tests use to type on the apps' stdin) loses exit notifications and output when several spawn at once.
@Suite("Example apps as processes", .serialized)
enum ExampleApps {}

/// `systemd-socket-activate`, which stands in for a `.socket` unit.
let socketActivate = "/usr/bin/systemd-socket-activate"

/// An example app installed but not running: `systemd-socket-activate` listens on its link socket and
/// starts it (passing the socket, `LISTEN_FDS`) when the counterpart connects — a background launch.
func installExample(_ name: String, role: String, in directory: String) async throws -> ChildProcess {
    let daemon = role == "phone" ? "phoned" : "watchd"
    let environment = exampleEnvironment(role: role, in: directory)
    let process = try ChildProcess(
        socketActivate,
        arguments: ["--listen=\(directory)/\(daemon).sock", "--fdname=\(daemon)"]
            + environment.sorted { $0.key < $1.key }.map { "--setenv=\($0.key)=\($0.value)" } + [Binaries.path(name)!],
        environment: [:])
    await process.stderr.waitFor("\(name) socket listening") { $0.hasPrefix("Listening on") }
    return process
}
