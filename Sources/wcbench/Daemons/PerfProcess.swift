import Foundation
import Glibc

/// A `perf` process attached to one daemon, started with its counters off and driven through control
/// FIFOs (`--control fifo:CTL,ACK -D -1`), so a measured window starts and ends exactly when
/// ``enable()`` and ``stop()`` return; attaching takes a while and must not be inside the window.
///
/// Used in two ways: `perf stat` on the fsync tracepoints (``SyscallCounter``) and, with `--profile`,
/// `perf record -g` for the profiles behind BENCHMARKS.md.
final class PerfProcess {
    /// Tries at attaching before giving up. perf opens its counters thread by thread, and a thread that
    /// goes away meanwhile is sometimes ignored, sometimes the end of it: exit 255, its log holding "Ignored
    /// open failure for pid N" or nothing. The daemons' idle libdispatch workers end a few seconds after
    /// their last job, often just as the next window attaches. Attaching comes before the window, so trying
    /// again changes nothing that is measured.
    static let attachAttempts = 3

    private let process: ChildProcess
    private let control: Int32
    private let ack: Int32
    /// perf's own messages (errors), of every attempt.
    let logPath: String

    /// Starts `perf <arguments> --control ... -D -1 -p <pid>` and waits until it has attached.
    init(perf: String, arguments: [String], pid: pid_t, directory: String, name: String) throws(BenchError) {
        logPath = "\(directory)/\(name).perf-log"
        (process, control, ack) = try Self.attach(
            perf: perf, arguments: arguments, pid: pid, directory: directory, name: name, logPath: logPath)
    }

    /// Up to ``attachAttempts`` perf processes, until one acknowledges its first command: the one that
    /// did, with its control and acknowledgement FIFOs.
    private static func attach(
        perf: String, arguments: [String], pid: pid_t, directory: String, name: String, logPath: String
    ) throws(BenchError) -> (ChildProcess, Int32, Int32) {
        let controlPath = "\(directory)/\(name).perf-ctl"
        let ackPath = "\(directory)/\(name).perf-ack"
        var failure: BenchError?
        for _ in 1...attachAttempts {
            // Fresh FIFOs each time: a perf that exited may have left our command unread, and the next
            // would answer it too, one acknowledgement ahead of every command after.
            let (control, ack) = try makeFIFOs(controlPath, ackPath)
            do {
                let process = try ChildProcess.spawn(
                    perf, arguments + ["--control", "fifo:\(controlPath),\(ackPath)", "-D", "-1", "-p", "\(pid)"],
                    name: "perf", environment: ChildProcess.environment(), output: logPath)
                // perf answers a command only once it has attached.
                guard let exited = try command("disable", process: process, control: control, ack: ack, logPath: logPath) else {
                    return (process, control, ack)
                }
                failure = exited
            } catch {
                close(control)
                close(ack)
                throw error
            }
            close(control)
            close(ack)
        }
        throw BenchError("\(failure.map { "\($0)" } ?? "perf did not attach") (\(attachAttempts) attempts)")
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

    /// Sends `word` to the attached perf; throws when perf exited or did not answer.
    private func command(_ word: String) throws(BenchError) {
        if let exited = try Self.command(word, process: process, control: control, ack: ack, logPath: logPath) { throw exited }
    }

    /// Creates both FIFOs anew and opens them. O_RDWR never blocks on a FIFO without a peer (Linux), so
    /// perf may open its ends later.
    private static func makeFIFOs(_ controlPath: String, _ ackPath: String) throws(BenchError) -> (Int32, Int32) {
        for path in [controlPath, ackPath] {
            unlink(path)
            guard mkfifo(path, 0o600) == 0 else { throw BenchError.system("mkfifo \(path)", errno: errno) }
        }
        let control = open(controlPath, O_RDWR | O_CLOEXEC)
        let ack = open(ackPath, O_RDWR | O_CLOEXEC)
        guard control >= 0, ack >= 0 else {
            let error = BenchError.system("open perf FIFOs", errno: errno)
            if control >= 0 { close(control) }
            if ack >= 0 { close(ack) }
            throw error
        }
        return (control, ack)
    }

    /// Sends `word` and waits for perf's acknowledgement. Returns nil once acknowledged, or what to say
    /// when perf exited first; throws when perf neither answers nor exits.
    private static func command(
        _ word: String, process: ChildProcess, control: Int32, ack: Int32, logPath: String
    ) throws(BenchError) -> BenchError? {
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
                let said = log.isEmpty ? "no output" : String(log.suffix(300))
                return BenchError("perf \(ChildProcess.describe(status)) before it acknowledged '\(word)' (\(logPath)): \(said)")
            }
            if Monotonic.now() >= deadline { throw BenchError("perf did not acknowledge '\(word)'") }
        }
        var buffer = [UInt8](repeating: 0, count: 64)
        _ = read(ack, &buffer, buffer.count)
        return nil
    }
}
