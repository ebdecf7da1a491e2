import Foundation
import Synchronization

/// A real child process started by a test: its output collected, its exit awaited, always reaped.
///
/// Standard output and standard error each go to a ``LineLog`` (read by a thread of their own) or to a
/// file; standard input is `/dev/null`. The exit status is reported by Foundation's termination handler,
/// so waiting for it never blocks a thread.
final class ChildProcess: Sendable {
    /// Where one output stream goes.
    enum Output: Sendable {
        /// Read into a ``LineLog``.
        case collect
        /// Appended to a file (daemons' stderr: kept for diagnostics after the process is gone).
        case file(String)
    }

    /// A short name for messages (`phoned`, `wcctl send`).
    let name: String
    /// The process id.
    let pid: Int32
    /// Standard output (empty when sent to a file).
    let stdout = LineLog()
    /// Standard error (empty when sent to a file).
    let stderr = LineLog()
    /// The stderr file, when stderr goes to one.
    let stderrPath: String?

    private let process: Process
    private let exit = ExitLatch()

    /// Starts `executable` with exactly `arguments` and `environment`.
    init(
        name: String, executable: String, arguments: [String], environment: [String: String],
        stdout stdoutMode: Output = .collect, stderr stderrMode: Output = .collect
    ) throws {
        self.name = name
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        var readers: [(Pipe, LineLog, String)] = []
        var files: [FileHandle] = []
        func attach(_ mode: Output, log: LineLog, what: String) throws -> Any {
            switch mode {
            case .collect:
                let pipe = Pipe()
                readers.append((pipe, log, what))
                return pipe
            case .file(let path):
                // O_APPEND: stdout and stderr (and restarts) share the file without overwriting each other.
                let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
                guard fd >= 0 else { throw RawControlClient.SocketError(attempted: "open(\(path))", code: errno) }
                let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
                files.append(handle)
                return handle
            }
        }
        process.standardOutput = try attach(stdoutMode, log: stdout, what: "stdout")
        process.standardError = try attach(stderrMode, log: stderr, what: "stderr")
        if case .file(let path) = stderrMode { stderrPath = path } else { stderrPath = nil }
        let latch = exit
        process.terminationHandler = { latch.set($0.terminationStatus, reason: $0.terminationReason) }
        try process.run()
        self.process = process
        pid = process.processIdentifier
        for handle in files { try? handle.close() }
        for (pipe, log, what) in readers {
            // Our copy of the write end must go, or the reader never sees end of file.
            try? pipe.fileHandleForWriting.close()
            let fd = dup(pipe.fileHandleForReading.fileDescriptor)
            try? pipe.fileHandleForReading.close()
            log.drain(fileDescriptor: fd, name: "\(name) \(what)")
        }
    }

    /// True until the process exited and was reaped.
    var isRunning: Bool { exit.status == nil }

    /// The exit status, or 128 + signal number when a signal ended it; nil while running.
    var exitStatus: Int32? { exit.status }

    /// Waits for the exit; nil when `timeout` passed first (the process keeps running).
    func waitForExit(timeout: Duration) async -> Int32? {
        await exit.wait(timeout: timeout)
    }

    /// Sends `signal` (no-op once the process is gone).
    func signal(_ signal: Int32) {
        guard isRunning else { return }
        _ = kill(pid, signal)
    }

    /// SIGKILLs the process and waits until it is reaped; returns its exit status.
    @discardableResult
    func killAndReap() async -> Int32? {
        signal(SIGKILL)
        return await waitForExit(timeout: .seconds(30))
    }

    /// Asks the process to stop (SIGTERM), then SIGKILLs it after `grace`; always reaped.
    @discardableResult
    func stop(grace: Duration = .seconds(5)) async -> Int32? {
        signal(SIGTERM)
        if let status = await waitForExit(timeout: grace) { return status }
        return await killAndReap()
    }

    /// The stderr file's contents, or the collected stderr (for failure messages).
    var stderrText: String {
        if let stderrPath { return (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
        return stderr.text
    }
}

/// The exit status of a child, set once by the termination handler, awaited by tests.
private final class ExitLatch: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [UInt64: CheckedContinuation<Int32?, Never>] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())

    var status: Int32? { state.withLock { $0.status } }

    func set(_ code: Int32, reason: Process.TerminationReason) {
        let status = reason == .uncaughtSignal ? 128 + code : code
        let waiters = state.withLock { s in
            s.status = status
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    func wait(timeout: Duration) async -> Int32? {
        let timer = Mutex<Task<Void, Never>?>(nil)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Int32?, Never>) in
            let id: UInt64? = state.withLock { s in
                if s.status != nil { return nil }
                s.next += 1
                s.waiters[s.next] = continuation
                return s.next
            }
            guard let id else {
                continuation.resume(returning: status)
                return
            }
            timer.withLock {
                $0 = Task {
                    try? await Task.sleep(for: timeout)
                    self.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
                }
            }
        }
        timer.withLock { $0?.cancel() }
        return result
    }
}
