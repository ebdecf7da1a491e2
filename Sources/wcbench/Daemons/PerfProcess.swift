import Foundation
import Glibc

/// A `perf` process attached to one daemon, started with its counters off and driven through control
/// FIFOs (`--control fifo:CTL,ACK -D -1`), so a measured window starts and ends exactly when
/// ``enable()`` and ``stop()`` return; attaching takes a while and must not be inside the window.
///
/// Used in two ways: `perf stat` on the fsync tracepoints (``SyscallCounter``) and, with `--profile`,
/// `perf record -g` for the profiles behind BENCHMARKS.md.
final class PerfProcess {
    private let process: ChildProcess
    private let control: Int32
    private let ack: Int32
    /// perf's own messages (errors).
    let logPath: String

    /// Starts `perf <arguments> --control ... -D -1 -p <pid>` and waits until it has attached.
    init(perf: String, arguments: [String], pid: pid_t, directory: String, name: String) throws(BenchError) {
        let controlPath = "\(directory)/\(name).perf-ctl"
        let ackPath = "\(directory)/\(name).perf-ack"
        logPath = "\(directory)/\(name).perf-log"
        for path in [controlPath, ackPath] {
            unlink(path)
            guard mkfifo(path, 0o600) == 0 else { throw BenchError.system("mkfifo \(path)", errno: errno) }
        }
        // O_RDWR never blocks on a FIFO without a peer (Linux), so perf may open its ends later.
        control = open(controlPath, O_RDWR | O_CLOEXEC)
        ack = open(ackPath, O_RDWR | O_CLOEXEC)
        guard control >= 0, ack >= 0 else { throw BenchError.system("open perf FIFOs", errno: errno) }
        process = try ChildProcess.spawn(
            perf, arguments + ["--control", "fifo:\(controlPath),\(ackPath)", "-D", "-1", "-p", "\(pid)"],
            name: "perf", environment: ChildProcess.environment(), output: logPath)
        // perf answers a command only once it has attached.
        try command("disable")
    }

    deinit {
        close(control)
        close(ack)
        process.stop(grace: 5)
    }

    /// Starts counting or recording.
    func enable() throws(BenchError) { try command("enable") }

    /// Stops counting, lets perf write its output (SIGINT) and waits for it to exit.
    func stop() throws(BenchError) {
        try command("disable")
        process.send(SIGINT)
        guard process.wait(seconds: 30) != nil else { throw BenchError("perf did not exit after SIGINT") }
    }

    private func command(_ word: String) throws(BenchError) {
        let line = word + "\n"
        let written = line.withCString { write(control, $0, strlen($0)) }
        guard written > 0 else { throw BenchError.system("write to perf's control FIFO", errno: errno) }
        var fds = [pollfd(fd: ack, events: Int16(POLLIN), revents: 0)]
        let deadline = Monotonic.deadline(seconds: 10)
        while true {
            let rc = poll(&fds, 1, min(100, Monotonic.pollTimeout(until: deadline)))
            if rc > 0 { break }
            if rc < 0 && errno == EINTR { continue }
            if let status = process.wait(seconds: 0) {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                let said = log.isEmpty ? "no output" : String(log.prefix(300))
                throw BenchError("perf \(ChildProcess.describe(status)) before it acknowledged '\(word)' (\(logPath)): \(said)")
            }
            if Monotonic.now() >= deadline { throw BenchError("perf did not acknowledge '\(word)'") }
        }
        var buffer = [UInt8](repeating: 0, count: 64)
        _ = read(ack, &buffer, buffer.count)
    }
}
