import Foundation
import Glibc
import Synchronization
import WatchPairWire

/// A scripted stand-in for a daemon's control socket, on a real Unix socket in a short temp directory.
///
/// It accepts one connection on a background thread, reads request lines, records them, and performs
/// what the test's handler returns for each one. It stops when the client closes, when an action says
/// `.close`, or when `stop()` is called (which also removes the socket; every test calls it, through
/// `withServer`). Requests are recorded without bound (tests send a handful).
final class FakeControlServer: Sendable {
    /// What the server does in answer to one request.
    enum Action: Sendable {
        /// Writes one line (a newline is added).
        case line(String)
        /// Writes bytes exactly as given (to split or merge lines).
        case bytes([UInt8])
        /// Closes the connection.
        case close
        /// Writes a byte to a descriptor (a test's interrupt pipe) to simulate Ctrl-C.
        case poke(Int32)
    }

    typealias Handler = @Sendable (_ request: JSONValue) -> [Action]

    let directory: String
    let path: String
    private let listenDescriptor: Int32
    private let recorded = Mutex<[JSONValue]>([])
    private let finished = DispatchSemaphore(value: 0)
    private let isFinished = Mutex(false)

    /// Starts listening and serving one connection with `handler`.
    init(handler: @escaping Handler) throws {
        var template = Array("/tmp/wcctl-test.XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        directory = String(cString: dir)
        path = directory + "/ctl"
        listenDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let fd = listenDescriptor
        let bound = UnixSocketAddress(path: path)?.withSockaddr { bind(fd, $0, $1) } ?? -1
        guard bound == 0, listen(listenDescriptor, 4) == 0 else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        let thread = Thread { [self] in
            self.serve(listening: fd, handler: handler)
            self.finished.signal()
        }
        thread.start()
    }

    /// Stops accepting, waits (bounded) for the connection to end, removes the socket and directory.
    func stop() {
        _ = shutdown(listenDescriptor, Int32(SHUT_RDWR))  // Wakes a pending accept (Linux).
        waitUntilFinished()
        _ = close(listenDescriptor)
        _ = unlink(path)
        _ = rmdir(directory)
    }

    /// The requests received so far, in order.
    var requests: [JSONValue] { recorded.withLock { $0 } }

    /// Waits (bounded, as a safety net) until the connection is over; returns false on timeout.
    @discardableResult
    func waitUntilFinished(seconds: Int = 10) -> Bool {
        if isFinished.withLock({ $0 }) { return true }
        guard finished.wait(timeout: .now() + .seconds(seconds)) == .success else { return false }
        isFinished.withLock { $0 = true }
        return true
    }

    private func serve(listening: Int32, handler: Handler) {
        let connection = accept(listening, nil, nil)
        guard connection >= 0 else { return }
        defer { _ = close(connection) }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeFirst(newline + 1)
                let request = (try? JSONValue.parse(line)) ?? .string(line)
                recorded.withLock { $0.append(request) }
                for action in handler(request) {
                    switch action {
                    case .line(let text): Self.write(Array(text.utf8) + [10], to: connection)
                    case .bytes(let bytes): Self.write(bytes, to: connection)
                    case .poke(let fd): Self.write([1], to: fd)
                    case .close: return
                    }
                }
            }
            let n = chunk.withUnsafeMutableBytes { read(connection, $0.baseAddress!, $0.count) }
            if n <= 0 { return }
            pending += chunk[0..<n]
        }
    }

    private static func write(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 {
                // Not a socket (the interrupt pipe): plain write.
                let w = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if w <= 0 { return }
                offset += w
                continue
            }
            offset += n
        }
    }
}

/// Response lines as the daemon writes them, through the control codec (`ControlResponse.line`).
enum Reply {
    /// The id of a request.
    static func id(_ request: JSONValue) -> Int64 {
        request["id"]?.integerValue ?? -1
    }

    /// `{"id":…,"ok":true,"result":…}`.
    static func ok(_ request: JSONValue, _ result: JSONValue = .object([:])) -> FakeControlServer.Action {
        .line(ControlResponse.success(id(request), result).line)
    }

    /// `{"id":…,"ok":false,"error":{…}}`, with any code and name (also ones wcctl does not know).
    static func failure(_ request: JSONValue, _ code: Int, _ name: String, _ message: String) -> FakeControlServer.Action {
        var error = ControlError(WCFailure(.genericError, message))
        error.code = code
        error.name = name
        return .line(ControlResponse(id: id(request), ok: false, error: error).line)
    }

    /// `{"id":…,"event":kind,"data":…}`.
    static func event(_ request: JSONValue, _ kind: String, _ data: JSONValue) -> FakeControlServer.Action {
        .line(ControlResponse.streamEvent(id(request), kind, data).line)
    }
}
