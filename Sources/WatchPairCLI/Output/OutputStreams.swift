import Glibc
import Synchronization

/// Where `wcctl` writes: standard output (results) and standard error (the one-line errors).
///
/// Writes are unbuffered: when `writeOut` returns, the bytes are in the pipe or file, which is what
/// `receive` relies on before it acknowledges an item.
public protocol OutputStreams: AnyObject {
    /// Writes bytes to standard output.
    ///
    /// - Throws: `.failure` when standard output is closed or unwritable (for example `EPIPE`).
    func writeOut(_ bytes: [UInt8]) throws(CLIError)
    /// Writes text to standard error; failures are ignored (there is nowhere left to report them).
    func writeErr(_ text: String)
    /// Whether standard error is a terminal (progress is then shown in place).
    var errorIsTerminal: Bool { get }
}

extension OutputStreams {
    /// Default: not a terminal (captured streams, pipes).
    public var errorIsTerminal: Bool { false }

    /// Writes `text` and a newline to standard output.
    public func printLine(_ text: String) throws(CLIError) {
        try writeOut(Array(text.utf8) + [UInt8(ascii: "\n")])
    }
}

/// The process's standard output and error (file descriptors 1 and 2), written with `write(2)`.
public final class StandardStreams: OutputStreams {
    /// Creates the streams.
    public init() {}

    /// Writes to file descriptor 1; `EPIPE` throws `.outputClosed`, other failures `.failure` with the errno.
    public func writeOut(_ bytes: [UInt8]) throws(CLIError) {
        if let code = Self.writeAll(bytes, to: STDOUT_FILENO) {
            throw CLIError.writingOutput(errno: code)
        }
    }

    /// Whether file descriptor 2 is a terminal.
    public var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes to file descriptor 2, ignoring failures.
    public func writeErr(_ text: String) {
        _ = Self.writeAll(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Writes everything, retrying on `EINTR` and partial writes; returns errno on failure.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }
}

/// Output captured in memory, for tests and for embedding `wcctl` in another program.
///
/// Both streams grow without bound: meant for short runs whose output is inspected afterwards.
public final class CapturedStreams: OutputStreams, Sendable {
    private let state = Mutex<(out: [UInt8], err: String, outClosed: Bool)>(([], "", false))

    /// Creates empty streams.
    public init() {}

    /// Everything written to standard output.
    public var outBytes: [UInt8] { state.withLock { $0.out } }
    /// Standard output as text.
    public var out: String { String(decoding: outBytes, as: UTF8.self) }
    /// Everything written to standard error.
    public var err: String { state.withLock { $0.err } }

    /// Makes later `writeOut` calls fail with `EPIPE` (`.outputClosed`), as when the reader of a pipe exits.
    public func closeOut() { state.withLock { $0.outClosed = true } }

    /// Appends to the captured output, or fails with `EPIPE` after `closeOut()`.
    public func writeOut(_ bytes: [UInt8]) throws(CLIError) {
        let closed = state.withLock { s in
            if !s.outClosed { s.out += bytes }
            return s.outClosed
        }
        if closed { throw CLIError.writingOutput(errno: EPIPE) }
    }

    /// Appends to the captured error text.
    public func writeErr(_ text: String) {
        state.withLock { $0.err += text }
    }
}
