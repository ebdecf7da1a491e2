import Glibc
import Logging
import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairTransport
import WatchPairWire

/// A short temporary directory (`sun_path` is 108 bytes), removed with everything in it by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/wpt.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw TestFailure("mkdtemp failed: errno \(errno)") }
        self.path = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func callAsFunction(_ name: String) -> String { "\(self.path)/\(name)" }

    /// Removes the directory and everything below it.
    func remove() {
        removeTree(self.path)
    }

    private func removeTree(_ path: String) {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let child = "\(path)/\(name)"
                var info = stat()
                if lstat(child, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                    removeTree(child)
                } else {
                    unlink(child)
                }
            }
            closedir(dir)
        }
        rmdir(path)
    }
}

/// A test-side error with a message.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Collects log records so tests can assert what was logged, without bootstrapping logging.
final class LogRecorder: Sendable {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let records = Mutex<[Record]>([])

    var logger: Logger {
        Logger(label: "WatchPairTransportTests") { _ in Handler(recorder: self) }
    }

    var all: [Record] { self.records.withLock { $0 } }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { self.metadata[key] }
            set { self.metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let record = Record(
                level: event.level,
                message: "\(event.message)",
                metadata: (event.metadata ?? [:]).mapValues { "\($0)" }
            )
            self.recorder.records.withLock { $0.append(record) }
        }
    }
}

/// A raw `AF_UNIX` socket (stream by default) bound at `path`, optionally listening; returns the descriptor.
func rawSocket(boundAt path: String, listening: Bool, type: __socket_type = SOCK_STREAM) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
    let rc = UnixSocketAddress(path: path)?.withSockaddr { bind(fd, $0, $1) } ?? -1
    guard rc == 0 else { close(fd); throw TestFailure("bind(\(path)): errno \(errno)") }
    if listening {
        guard listen(fd, 16) == 0 else { close(fd); throw TestFailure("listen: errno \(errno)") }
    }
    return fd
}

/// A socket file nobody listens on: bound, then closed (the file stays).
func makeStaleSocketFile(at path: String) throws {
    close(try rawSocket(boundAt: path, listening: false))
}

func fileExists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
}

/// Starts `transport.serve` in a task and returns it once the socket is listening.
///
/// If `serve` throws before listening, that error is rethrown here.
func startServing(
    _ transport: UnixSocketTransport,
    _ handler: @escaping @Sendable (any TransportConnection) async -> Void
) async throws -> Task<Void, any Error> {
    let (ready, readyContinuation) = AsyncStream.makeStream(of: Void.self)
    let task = Task {
        defer { readyContinuation.finish() }
        try await transport.serve(onListening: { readyContinuation.yield() }, handler)
    }
    var iterator = ready.makeAsyncIterator()
    if await iterator.next() == nil {
        try await task.value
        throw TestFailure("serve returned without listening")
    }
    return task
}

/// Stops a serving task and waits for `serve` to return.
func stopServing(_ task: Task<Void, any Error>) async throws {
    task.cancel()
    try await withTimeout { try await task.value }
}

/// Reads `inbound` until `count` bytes arrived (or it ended), returning them.
func readBytes(_ connection: any TransportConnection, count: Int) async throws -> [UInt8] {
    var received: [UInt8] = []
    for try await chunk in connection.inbound {
        received += chunk
        if received.count >= count { break }
    }
    return received
}

/// Reads `inbound` to its end.
func readToEnd(_ connection: any TransportConnection) async throws -> [UInt8] {
    var received: [UInt8] = []
    for try await chunk in connection.inbound { received += chunk }
    return received
}

/// Serves connections by echoing every byte back.
let echoHandler: @Sendable (any TransportConnection) async -> Void = { connection in
    do {
        for try await chunk in connection.inbound { try await connection.write(chunk) }
    } catch {}
}

/// The current uid, and one that certainly is not it.
let ownUID = UInt32(getuid())
let otherUID = ownUID &+ 4242
