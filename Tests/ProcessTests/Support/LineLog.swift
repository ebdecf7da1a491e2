import Foundation
import Synchronization
import WatchPairCore
import WatchPairTesting

/// The lines a child process (or a raw control client) produced, in order, with waiters for lines to come.
///
/// Filled by one reader (a thread, or a raw control client's task); read by tests. Bound: at most
/// ``limit`` lines are kept; a line past it is dropped and counted in ``overflowed`` (tests check it, so
/// an overflow fails them instead of passing silently). Waiters are woken on each new line and at end of
/// stream.
final class LineLog: Sendable {
    /// Most lines kept.
    static let limit = 200_000

    private struct State {
        var lines: [String] = []
        var partial: [UInt8] = []
        var finished = false
        var overflowed = 0
    }

    private let state = Mutex(State())
    /// Fires on each new line and at end of stream.
    private let changed = AsyncSignal()

    /// Every complete line so far (without its newline).
    var lines: [String] { state.withLock { $0.lines } }
    /// The whole text so far, lines joined with newlines (plus an unterminated tail).
    var text: String {
        state.withLock { s in (s.lines + (s.partial.isEmpty ? [] : [String(decoding: s.partial, as: UTF8.self)])).joined(separator: "\n") }
    }
    /// True once the stream ended.
    var isFinished: Bool { state.withLock { $0.finished } }
    /// Lines dropped because ``limit`` was reached.
    var overflowed: Int { state.withLock { $0.overflowed } }

    /// Appends bytes read from the stream.
    func append(_ bytes: some Sequence<UInt8>) {
        let added = state.withLock { s in
            var added = false
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    if s.lines.count < Self.limit {
                        s.lines.append(String(decoding: s.partial, as: UTF8.self))
                        added = true
                    } else {
                        s.overflowed += 1
                    }
                    s.partial.removeAll(keepingCapacity: true)
                } else {
                    s.partial.append(byte)
                }
            }
            return added
        }
        if added { changed.fire() }
    }

    /// Marks the end of the stream (an unterminated last line counts as a line).
    func finish() {
        state.withLock { s in
            if !s.partial.isEmpty, s.lines.count < Self.limit {
                s.lines.append(String(decoding: s.partial, as: UTF8.self))
                s.partial = []
            }
            s.finished = true
        }
        changed.fire()
    }

    /// Waits until `condition` holds for the lines so far (checked at once and on each new line), the
    /// stream ends, or `timeout` passes (a safety net). Returns whether `condition` holds.
    @discardableResult
    func wait(timeout: Duration, until condition: @escaping @Sendable ([String]) -> Bool) async -> Bool {
        _ = try? await withTimeout(timeout, "lines") {
            try await self.changed.first { self.state.withLock { condition($0.lines) || $0.finished } ? () : nil }
        }
        return condition(lines)
    }

    /// Waits until the stream ends; returns false when `timeout` passed first.
    @discardableResult
    func waitForEnd(timeout: Duration) async -> Bool {
        await wait(timeout: timeout) { _ in false }
        return isFinished
    }

    /// Waits for the first line containing `fragment`; returns it, or nil after `timeout` or at end of stream.
    func firstLine(containing fragment: String, timeout: Duration) async -> String? {
        await wait(timeout: timeout) { $0.contains { $0.contains(fragment) } }
        return lines.first { $0.contains(fragment) }
    }

    /// Reads `fd` on a dedicated thread until end of file or error, then closes it and finishes.
    ///
    /// A thread of its own, not a task: a blocking `read` must not hold one of the few threads of the
    /// cooperative pool (two on this machine) that every test shares.
    func drain(fileDescriptor fd: Int32, name: String) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if n > 0 {
                    append(buffer[0..<n])
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(fd)
            finish()
        }
        thread.name = "reader \(name)"
        thread.start()
    }
}
