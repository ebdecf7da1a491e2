import Foundation
import Glibc
import WatchPairCLI
import WatchPairWire

/// A `phoned` + `watchd` pair in its own directory: generated config files, sockets, state and logs.
///
/// The daemons are the real executables, started directly (foreground launch) or handed over after a
/// socket activation (``adopt(_:_:)``). Their stdout and stderr are appended to `<role>.log` in the
/// directory. Everything the pair starts is stopped by ``stopAll()`` (and by ``Cleanup`` on interruption).
final class DaemonPair {
    /// The pair's directory (short: socket paths must fit in 107 bytes).
    let directory: String
    /// Where the executables are.
    let binaries: Binaries
    /// `power` or `process`.
    let durability: String
    private var processes: [Role: ChildProcess] = [:]

    /// Creates the directory and writes both config files.
    ///
    /// - Parameter extra: additional top-level config keys (JSON text per key), e.g. `"timeouts"`.
    init(directory: String, binaries: Binaries, durability: String, launch: String = "auto", extra: [String: String] = [:]) throws(BenchError) {
        self.directory = directory
        self.binaries = binaries
        self.durability = durability
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw BenchError.system("cannot create \(directory)", errno: errno)
        }
        for role in Role.allCases {
            let peer = role.peer
            var keys: [String] = [
                "\"paths\": {\"link\": \"\(linkPath(role))\", \"peerLink\": \"\(linkPath(peer))\", "
                    + "\"control\": \"\(controlPath(role))\", \"peerControl\": \"\(controlPath(peer))\", "
                    + "\"state\": \"\(statePath(role))\"}",
                "\"durability\": \"\(durability)\"",
                "\"log\": {\"destination\": \"stderr\"}",
                "\"launch\": \"\(launch)\"",
            ]
            for (key, value) in extra.sorted(by: { $0.key < $1.key }) { keys.append("\"\(key)\": \(value)") }
            let text = "{\n  " + keys.joined(separator: ",\n  ") + "\n}\n"
            do {
                try text.write(toFile: configPath(role), atomically: true, encoding: .utf8)
            } catch {
                throw BenchError("cannot write \(configPath(role)): \(error)")
            }
        }
    }

    func configPath(_ role: Role) -> String { "\(directory)/\(role.daemonName).json" }
    func linkPath(_ role: Role) -> String { "\(directory)/\(role.daemonName).sock" }
    func controlPath(_ role: Role) -> String { "\(directory)/\(role.daemonName).ctl" }
    func statePath(_ role: Role) -> String { "\(directory)/\(role.daemonName)" }
    func logPath(_ role: Role) -> String { "\(directory)/\(role.daemonName).log" }

    /// The running process of `role`.
    func process(_ role: Role) throws(BenchError) -> ChildProcess {
        guard let process = processes[role], process.isRunning else {
            let how = processes[role]?.waitStatus.map(ChildProcess.describe) ?? "not started"
            throw BenchError("\(role.daemonName) is not running (\(how)); see \(logPath(role))")
        }
        return process
    }

    /// Starts `role`'s daemon directly and returns at once (it binds its own sockets).
    @discardableResult
    func spawn(_ role: Role) throws(BenchError) -> ChildProcess {
        let daemon = role == .phone ? binaries.phoned : binaries.watchd
        let command = binaries.wrapper + [daemon]
        let child = try ChildProcess.spawn(
            command[0], Array(command.dropFirst()), name: role.daemonName,
            environment: ChildProcess.environment(["WATCHPAIR_CONFIG": configPath(role)]),
            output: logPath(role))
        processes[role] = child
        return child
    }

    /// Starts `role`'s daemon and waits until its control socket answers `status`.
    @discardableResult
    func start(_ role: Role, timeout: Double = 20) throws(BenchError) -> ChildProcess {
        let child = try spawn(role)
        try waitReady(role, deadline: Monotonic.deadline(seconds: timeout * binaries.slowdown))
        return child
    }

    /// Waits until `role`'s control socket answers.
    func waitReady(_ role: Role, deadline: UInt64) throws(BenchError) {
        while true {
            do {
                let connection = try BenchConnection.connect(controlPath(role))
                try connection.call(connection.request("status"), deadline: deadline)
                return
            } catch {
                if let process = processes[role], !process.isRunning {
                    throw BenchError("\(role.daemonName) exited while starting (\(ChildProcess.describe(process.waitStatus ?? -1))); see \(logPath(role))")
                }
                if Monotonic.now() >= deadline { throw BenchError("\(role.daemonName) did not start: \(error)") }
                Monotonic.sleep(seconds: 0.000_25)
            }
        }
    }

    /// Takes over a process started otherwise (socket activation) as `role`'s daemon.
    func adopt(_ role: Role, _ process: ChildProcess) { processes[role] = process }

    /// Stops `role`'s daemon with SIGTERM (SIGKILL after 10 s) and reaps it.
    ///
    /// - Throws: when it did not exit with status 0 (a crash or a forced kill is worth knowing).
    func stop(_ role: Role) throws(BenchError) {
        guard let process = processes.removeValue(forKey: role) else { return }
        let status = process.stop(grace: 10 * binaries.slowdown)
        guard status == 0 else {
            throw BenchError("\(role.daemonName) did not stop cleanly: \(ChildProcess.describe(status)); see \(logPath(role))")
        }
    }

    /// Stops every daemon of the pair; failures are returned, not thrown.
    @discardableResult
    func stopAll() -> [BenchError] {
        var failures: [BenchError] = []
        for role in Role.allCases {
            do throws(BenchError) { try stop(role) } catch { failures.append(error) }
        }
        return failures
    }

    /// The `status` result of `role`'s daemon, through wcctl's client.
    func status(_ role: Role) throws(BenchError) -> [String: JSONValue] {
        let result: JSONValue
        do throws(CLIError) {
            let client = try ControlClient.connect(to: ControlTarget(role: role, path: controlPath(role)))
            result = try client.call(client.makeRequest("status"), wait: .seconds(10))
        } catch {
            throw BenchError("status of \(role.daemonName): \(error.message)")
        }
        guard case .object(let object) = result else { throw BenchError("status of \(role.daemonName) is not an object") }
        return object
    }

    /// An integer field of `role`'s status, nil when absent (e.g. `storeCommits` on daemons without it).
    func statusInteger(_ role: Role, _ key: String) throws(BenchError) -> Int? {
        if case .integer(let value)? = try status(role)[key] { return Int(value) }
        return nil
    }

    /// Waits until phoned reports no outstanding transfers (watchd confirmed every one), asking `status`
    /// every 5 ms.
    func waitUntilNothingOutstanding(deadline: UInt64) throws(BenchError) {
        while let outstanding = try statusInteger(.phone, "outstandingTransfers"), outstanding != 0 {
            guard Monotonic.now() < deadline else { throw BenchError("phoned still has \(outstanding) outstanding transfers") }
            Monotonic.sleep(seconds: 0.005)
        }
    }

    /// /proc statistics of `role`'s daemon.
    func stats(_ role: Role) throws(BenchError) -> ProcessStats {
        try ProcessStats.of(try process(role).pid)
    }

    deinit { stopAll() }
}
