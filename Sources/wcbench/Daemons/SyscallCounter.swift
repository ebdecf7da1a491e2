import Foundation
import Glibc

/// Exact counts of `fsync`/`fdatasync` calls made by one process over a window, with `perf stat` on the
/// syscall tracepoints (counting mode: no sampling, negligible cost to the daemon).
///
/// perf starts with its counters disabled (`-D -1`) and is driven through control FIFOs, so the window
/// starts and ends exactly when ``enable()`` and ``finish()`` return; attaching takes a while and must
/// not be inside the window. Needs `perf` and permission to use tracepoints (root, or
/// `perf_event_paranoid` ≤ -1); without them ``start`` throws and the caller reports the count as
/// unavailable.
final class SyscallCounter {
    /// The syscalls counted.
    static let events = ["syscalls:sys_enter_fsync", "syscalls:sys_enter_fdatasync"]

    private let process: ChildProcess
    private let control: Int32
    private let ack: Int32
    private let outputPath: String

    private init(process: ChildProcess, control: Int32, ack: Int32, outputPath: String) {
        self.process = process
        self.control = control
        self.ack = ack
        self.outputPath = outputPath
    }

    deinit {
        close(control)
        close(ack)
        process.stop(grace: 2)
    }

    /// Attaches perf to `pid` (all its threads, and threads they create), counters off.
    static func start(perf: String, pid: pid_t, directory: String, name: String) throws(BenchError) -> SyscallCounter {
        let controlPath = "\(directory)/\(name).perf-ctl"
        let ackPath = "\(directory)/\(name).perf-ack"
        let outputPath = "\(directory)/\(name).perf-out"
        for path in [controlPath, ackPath] {
            unlink(path)
            guard mkfifo(path, 0o600) == 0 else { throw BenchError.system("mkfifo \(path)", errno: errno) }
        }
        // O_RDWR never blocks on a FIFO without a peer (Linux), so perf may open its ends later.
        let control = open(controlPath, O_RDWR | O_CLOEXEC)
        let ack = open(ackPath, O_RDWR | O_CLOEXEC)
        guard control >= 0, ack >= 0 else { throw BenchError.system("open perf FIFOs", errno: errno) }
        let arguments = [
            "stat", "-x", ",", "-o", outputPath, "-e", events.joined(separator: ","),
            "--control", "fifo:\(controlPath),\(ackPath)", "-D", "-1", "-p", "\(pid)",
        ]
        let process = try ChildProcess.spawn(
            perf, arguments, name: "perf", environment: ChildProcess.environment(), output: "\(directory)/\(name).perf-log")
        let counter = SyscallCounter(process: process, control: control, ack: ack, outputPath: outputPath)
        // perf answers a harmless command only once it is attached.
        try counter.command("disable")
        return counter
    }

    /// Starts counting.
    func enable() throws(BenchError) { try command("enable") }

    /// Stops counting and returns the count per syscall (`fsync`, `fdatasync`).
    func finish() throws(BenchError) -> [String: Int] {
        try command("disable")
        process.send(SIGINT)
        guard let status = process.wait(seconds: 5) else { throw BenchError("perf did not exit after SIGINT") }
        guard let text = try? String(contentsOfFile: outputPath, encoding: .utf8) else {
            throw BenchError("perf wrote no output (\(ChildProcess.describe(status)))")
        }
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3, let event = Self.events.first(where: { fields[2].hasPrefix($0) }) else { continue }
            let name = String(event.dropFirst("syscalls:sys_enter_".count))
            counts[name] = Int(fields[0]) ?? 0  // "<not counted>": nothing happened while enabled
        }
        guard counts.count == Self.events.count else {
            throw BenchError("perf output has no syscall counts: \(text.prefix(300))")
        }
        return counts
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
            if !process.isRunning {
                let log = (try? String(contentsOfFile: outputPath.replacingOccurrences(of: "perf-out", with: "perf-log"), encoding: .utf8)) ?? ""
                throw BenchError("perf exited: \(log.prefix(300))")
            }
            if Monotonic.now() >= deadline { throw BenchError("perf did not acknowledge '\(word)'") }
        }
        var buffer = [UInt8](repeating: 0, count: 64)
        _ = read(ack, &buffer, buffer.count)
    }
}
