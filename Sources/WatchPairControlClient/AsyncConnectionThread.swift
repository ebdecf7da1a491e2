import Foundation
import Glibc
import Synchronization
import WatchPairWire

/// The thread of one ``AsyncControlClientConnection``: it owns the socket (a ``ControlClientConnection``) and makes
/// every system call of the connection, so no task ever waits in one.
///
/// It polls the socket and the read end of a wake-up socket pair; a task that queues a write or closes
/// the connection writes one byte to the other end. The socket is polled for writing only while a write
/// waits, and for reading only until the stream has ended, so the thread sleeps in `poll(2)` whenever
/// there is nothing to do.
final class AsyncConnectionThread: Sendable {
    /// The state shared with the connection's tasks.
    let state: Mutex<AsyncConnectionState>
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Makes the wake-up pair; the thread starts with ``start(path:connected:)``.
    init(maxUnreadLines: Int) throws(ControlClientError) {
        var fds: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw .system(operation: "socketpair", errno: errno) }
        (wakeRead, wakeWrite) = (fds[0], fds[1])
        state = Mutex(AsyncConnectionState(maxUnreadLines: maxUnreadLines))
    }

    /// Starts the thread: it connects to `path`, resumes `connected`, then serves until stopped.
    func start(path: String, connected: CheckedContinuation<Void, any Error>) {
        Thread { [self] in
            do {
                let connection = try ControlClientConnection.connect(to: path)
                connected.resume()
                serve(connection)
            } catch {
                connected.resume(throwing: error)
            }
            finish()
        }.start()
    }

    /// Wakes the thread to look at the state again (a write queued, a stop asked for).
    func wake() {
        state.withLock { state in
            guard !state.finished else { return }  // The pair is closed.
            var byte: UInt8 = 1
            _ = Glibc.send(wakeWrite, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))  // Full: already awake.
        }
    }

    /// Asks the thread to finish, without waiting for it.
    func stop() {
        state.withLock { $0.stopping = true }
        wake()
    }

    private func serve(_ connection: ControlClientConnection) {
        var fds = [pollfd(), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            let (stopping, reading, write) = state.withLock { state in
                (state.stopping, state.reading, state.writes.first.map { (bytes: $0.bytes, from: state.written) })
            }
            if stopping { return }
            let events = (reading ? Int16(POLLIN) : 0) | (write == nil ? 0 : Int16(POLLOUT))
            fds[0] = pollfd(fd: events == 0 ? -1 : connection.descriptor, events: events, revents: 0)
            fds[1].revents = 0
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                let failure = ControlClientError.system(operation: "poll", errno: errno)
                for reader in state.withLock({ $0.deliver([], end: failure) }) { reader.resume() }
                return
            }
            if fds[1].revents != 0 { drainWakeUps() }
            let socket = fds[0].revents
            if let write, socket & Int16(POLLOUT | POLLERR | POLLHUP) != 0 {
                sendQueued(write.bytes, from: write.from, on: connection)
            }
            if reading, socket & Int16(POLLIN | POLLERR | POLLHUP) != 0 { receive(from: connection) }
        }
    }

    /// Sends what the socket takes of the first queued write; resumes its task once all is sent.
    private func sendQueued(_ bytes: [UInt8], from offset: Int, on connection: ControlClientConnection) {
        let done: Result<CheckedContinuation<Void, any Error>?, ControlClientError>
        do {
            let sent = try UnixStreamSocket.send(connection.descriptor, bytes, from: offset, waiting: false)
            done = .success(
                state.withLock { state in
                    state.written += sent
                    guard state.written == bytes.count else { return nil }
                    state.written = 0
                    return state.writes.removeFirst().done
                })
        } catch {
            done = .failure(error)
        }
        switch done {
        case .success(let continuation): continuation?.resume()
        case .failure(let error):
            state.withLock { state in
                state.written = 0
                return state.writes.removeFirst().done
            }.resume(throwing: error)
        }
    }

    /// Reads one chunk and hands its lines (and the end of the stream) to the waiting tasks.
    private func receive(from connection: ControlClientConnection) {
        var lines: [ControlResponse] = []
        var end: ControlClientError?
        do {
            let open = try connection.fill()
            while let line = try connection.nextResponse() { lines.append(line) }
            if !open { end = .closed }
        } catch {
            end = error
        }
        for reader in state.withLock({ $0.deliver(lines, end: end) }) { reader.resume() }
    }

    private func drainWakeUps() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ recv(wakeRead, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
    }

    /// Ends the connection for every task: the socket is closed by now (the ``ControlClientConnection`` was
    /// released), and the wake-up pair is closed under the lock so ``wake()`` never writes to it after.
    private func finish() {
        let (readers, writes, closers) = state.withLock { state in
            _ = close(wakeRead)
            _ = close(wakeWrite)
            return state.finish()
        }
        for reader in readers { reader.resume() }
        for write in writes { write.done.resume(throwing: ControlClientError.closed) }
        for closer in closers { closer.resume() }
    }
}
