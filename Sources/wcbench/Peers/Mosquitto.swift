import Foundation
import Glibc

/// A private mosquitto broker (Debian's `mosquitto`) for the peer comparison: its own configuration,
/// Unix socket and persistence directory under the run's directory, run as the current user.
///
/// Mosquitto keeps messages in memory and writes its persistence file as a whole snapshot: every
/// `autosave_interval` seconds by default (1,800), or after that many changes with
/// `autosave_on_changes`. ``Persistence/everyChange`` (a snapshot after each change) is the nearest it comes
/// to WatchPair's "durable before acknowledged"; the section counts the fsyncs it really makes.
final class Mosquitto {
    /// How the broker persists.
    enum Persistence: String, CaseIterable {
        /// `persistence true` with the default autosave (a snapshot every 30 min, and at exit).
        case snapshot
        /// `autosave_on_changes true`, `autosave_interval 1`: a snapshot after every change.
        case everyChange

        /// The configuration lines.
        var lines: [String] {
            switch self {
            case .snapshot: ["persistence true"]
            case .everyChange: ["persistence true", "autosave_on_changes true", "autosave_interval 1"]
            }
        }
    }

    /// The broker's Unix socket.
    let socketPath: String
    /// The broker process.
    let process: ChildProcess
    /// Where its configuration, log and persistence file are.
    let directory: String

    /// Starts `binary` in `directory` (created) with `persistence`, and waits until it accepts MQTT.
    init(binary: String, directory: String, persistence: Persistence, deadline: UInt64) throws(BenchError) {
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { throw BenchError.system("cannot create \(directory)", errno: errno) }
        self.directory = directory
        socketPath = "\(directory)/mq.sock"
        let user = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
        let configuration = [
            // Without `user`, a broker started as root switches to the user `mosquitto`, which cannot
            // bind a socket in our directory.
            "user \(user)",
            "listener 0 \(socketPath)",
            "allow_anonymous true",
            "persistence_location \(directory)/",
            // As many unacknowledged QoS 1 messages to a subscriber as wcbench keeps in flight (default 20).
            "max_inflight_messages 64",
            "max_queued_messages 0",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
        ] + persistence.lines
        let path = "\(directory)/mosquitto.conf"
        do {
            try (configuration.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw BenchError("cannot write \(path): \(error)")
        }
        process = try ChildProcess.spawn(
            binary, ["-c", path], name: "mosquitto", environment: ChildProcess.environment(), output: "\(directory)/mosquitto.log")
        // Ready once its socket accepts a connection.
        while true {
            if let fd = try? UnixSockets.connect(socketPath) {
                close(fd)
                return
            }
            guard process.isRunning else {
                throw BenchError("mosquitto \(ChildProcess.describe(process.stop())); see \(directory)/mosquitto.log")
            }
            guard Monotonic.now() < deadline else { throw BenchError("mosquitto did not listen on \(socketPath) in time") }
            Monotonic.sleep(seconds: 0.01)
        }
    }

    /// Stops the broker (SIGTERM: it writes its final snapshot) and reaps it.
    func stop() { process.stop() }

    /// Debian's broker, from PATH or /usr/sbin (not in a normal user's PATH).
    static func locate() -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin"
        return path.split(separator: ":").map { "\($0)/mosquitto" }.first { access($0, X_OK) == 0 }
    }
}
