import Synchronization
import WatchPairCore
import WatchPairWire

/// Writes response and event lines to one control client, from any number of tasks.
///
/// Each line is one write, so lines from concurrent requests never interleave. A client that stops
/// reading makes writes wait (the socket buffer's back-pressure), which holds up only that client's own requests and
/// streams. A write that waits in a task that is cancelled (the daemon is stopping) closes the connection, so a
/// client that no longer reads cannot hold up the daemon's shutdown. After the first failed write every later
/// ``send(_:)`` returns false at once.
public final class ControlWriter: Sendable {
    private let connection: any TransportConnection
    private let broken = Mutex(false)

    init(_ connection: any TransportConnection) {
        self.connection = connection
    }

    /// Writes `response` as one line; false when the connection is gone.
    @discardableResult
    public func send(_ response: ControlResponse) async -> Bool {
        await send(line: response.lineBytes)
    }

    /// Writes one line already encoded (newline included, e.g. `ControlResponse.streamEventLine`);
    /// false when the connection is gone.
    @discardableResult
    public func send(line: [UInt8]) async -> Bool {
        guard !broken.withLock({ $0 }) else { return false }
        // What fits is written whatever the task's state: a stopping daemon still tells its clients.
        if connection.writeNow(line) { return true }
        let connection = self.connection
        do {
            try await withTaskCancellationHandler {
                try await connection.write(line)
            } onCancel: {
                // Closing fails the waiting write, which ends the wait.
                Task { await connection.close() }
            }
            return true
        } catch {
            broken.withLock { $0 = true }
            return false
        }
    }

    /// Writes one line without suspending, for a response made where nothing may wait (a started
    /// request's, on the engine). When the socket holds more than its bound (a client slow to read), the
    /// line is written by a task of its own, so it may pass lines written after it; only responses of
    /// requests started this way are written so, and each carries its request's id.
    public func sendNow(line: [UInt8]) {
        guard !sendIfReady(line: line), !isBroken else { return }
        Task { await self.send(line: line) }
    }

    /// Writes one line if the socket takes it now; false, writing nothing, when it would have to wait (or
    /// the connection is gone), so the caller can take the path that waits.
    public func sendIfReady(line: [UInt8]) -> Bool {
        guard !broken.withLock({ $0 }) else { return false }
        return connection.writeNow(line)
    }

    /// Whether the socket takes a line now without waiting: an empty write probes it, writing nothing.
    public var hasRoom: Bool {
        !broken.withLock { $0 } && connection.writeNow([])
    }

    /// Whether a write has failed (the client went away).
    public var isBroken: Bool { broken.withLock { $0 } }
}
