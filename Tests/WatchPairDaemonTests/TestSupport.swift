import Foundation
import Logging
import Synchronization
import Systemd
import WatchPairCore
import WatchPairDaemon
import WatchPairHost
import WatchPairWire

@testable import WatchPairDaemon
@testable import WatchPairHost

/// A file with the given contents under /tmp, removed when the value is released.
final class TemporaryFile {
    let path: String

    init(_ contents: String) throws {
        var template = Array("/tmp/wpd-conf-XXXXXX.json".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 5) }
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        close(fd)
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        try contents.write(toFile: path, atomically: false, encoding: .utf8)
    }

    deinit { unlink(path) }
}

/// A short directory under /tmp (socket paths must fit `sun_path`), removed with its contents on release.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/wpd-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A logger that drops everything (the tests look at events and responses, not log lines).
let quietLogger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

/// Waits until `engine`'s status satisfies `condition`, checking again each time `signal` fires (no
/// polling); returns early when the test's time limit cancels it.
func waitForStatus(of engine: PairEngine, wokenBy signal: AsyncSignal, _ condition: (EngineStatus) -> Bool) async {
    while !Task.isCancelled {
        let seen = signal.generation
        if condition(await engine.status()) { return }
        await signal.wait(after: seen)
    }
}

/// Collects the events a daemon writes, and lets a test wait for one.
final class EventCollector: Sendable {
    private let events = Mutex<[DiagnosticEvent]>([])
    let signal = AsyncSignal()

    var writer: EventWriter {
        EventWriter { event in
            self.events.withLock { $0.append(event) }
            self.signal.fire()
        }
    }

    var all: [DiagnosticEvent] { events.withLock { $0 } }

    /// Waits until an event of `kind` has been written.
    func wait(for kind: DiagnosticEvent.Kind) async {
        // Ends when cancelled (a test's time limit): a signal's wait returns at once then.
        while !Task.isCancelled {
            let seen = signal.generation
            if all.contains(where: { $0.kind == kind }) { return }
            await signal.wait(after: seen)
        }
    }
}

/// Builds the daemon of `configuration` as these tests run one without systemd (its events into
/// `events`, its time from `clock`), runs it while `body` runs, then shuts it down and returns once its
/// `run()` has.
func withRunningDaemon(
    _ configuration: DaemonConfiguration, clock: any Clock<Duration> = ContinuousClock(), events: EventCollector,
    _ body: (Daemon) async throws -> Void
) async throws {
    let daemon = try await buildDaemon(
        configuration: configuration, logger: quietLogger,
        environment: DaemonEnvironment(clock: clock, listenFileDescriptors: ListenFileDescriptors([]), eventWriter: events.writer))
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await daemon.run(handlingSignals: false) }
        try await body(daemon)
        await daemon.shutdown()
        try await group.waitForAll()
    }
}

/// A daemon configuration whose paths all live in `directory`.
func testConfiguration(_ role: Role, in directory: String) -> DaemonConfiguration {
    var configuration = DaemonConfiguration(role: role)
    let name = role.daemonName
    let peer = role.peer.daemonName
    configuration.paths = DaemonConfiguration.Paths(
        link: "\(directory)/\(name).sock",
        peerLink: "\(directory)/\(peer).sock",
        control: "\(directory)/\(name).ctl",
        peerControl: "\(directory)/\(peer).ctl",
        state: "\(directory)/\(name)"
    )
    configuration.durability = .process
    configuration.allowedUIDs = [UInt32(getuid())]
    configuration.launch = .foreground
    // Real-clock daemons: no timer fires unless a test sets it (a loaded machine once took over 10 s for
    // an in-memory reply, and a timeout fails a test about something else).
    configuration.timeouts.reply = .seconds(3_600)
    configuration.timeouts.handshake = .seconds(3_600)
    configuration.keepAlive.interval = nil
    return configuration
}
