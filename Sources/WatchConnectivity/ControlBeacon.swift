import Foundation
import Logging
import Synchronization
import WatchPairCore
import WatchPairTransport
import WatchPairWire

/// The app's control socket while its session is active: proof of life for the counterpart, and `status`.
///
/// The counterpart's engine decides whether this app is running by connecting to its control socket
/// (`Transport.peerPresence`), so an app built on `WCSession` must serve it just as `phoned`/`watchd` do.
/// It speaks the control protocol (docs/ControlProtocol.md) far enough for `wcctl status`: `status`
/// gets the engine's status; every other operation gets 7008 (`invalidParameter`), because the app's
/// own code, not a control client, is the app's logic here.
///
/// Bounds: connections as the transport allows (`maximumConnections`); a request line over 1 MiB gets
/// an error and closes its connection.
final class ControlBeacon: Sendable {
    /// The longest request line accepted.
    static let maxLineLength = 1 << 20

    let transport: UnixSocketTransport
    let engine: PairEngine
    let clients = Mutex(0)

    init(socket: BoundSocket, allowedUIDs: Set<UInt32>, engine: PairEngine, logger: Logger) {
        self.transport = UnixSocketTransport(
            configuration: UnixSocketTransportConfiguration(
                listener: .adopt(fileDescriptor: socket.descriptor),
                peerLinkPath: socket.path,
                peerControlPath: socket.path,
                allowedUIDs: allowedUIDs
            ),
            logger: logger
        )
        self.engine = engine
    }

    /// Serves until the calling task is cancelled.
    func run() async throws {
        try await transport.serve { connection in
            self.clients.withLock { $0 += 1 }
            defer { self.clients.withLock { $0 -= 1 } }
            await self.serve(connection)
        }
    }

    private func serve(_ connection: any TransportConnection) async {
        var buffer: [UInt8] = []
        do {
            for try await chunk in connection.inbound {
                buffer.append(contentsOf: chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    try await connection.write(await respond(to: line))
                }
                if buffer.count > Self.maxLineLength {
                    let failure = WCFailure(.invalidParameter, "request line longer than \(Self.maxLineLength) bytes")
                    try await connection.write(Self.encode(.failure(nil, failure)))
                    return
                }
            }
        } catch {
            return
        }
    }

    private func respond(to line: [UInt8]) async -> [UInt8] {
        guard let request = try? JSONDecoder().decode(ControlRequest.self, from: Data(line)) else {
            return Self.encode(.failure(nil, WCFailure(.invalidParameter, "the line is not a valid control request")))
        }
        guard request.op == .status else {
            let reason = "'\(request.op.rawValue)' is not served: this app's WCSession delegate is the app's logic; only status is answered"
            return Self.encode(.failure(request.id, WCFailure(.invalidParameter, reason)))
        }
        let status = await engine.status()
        var result: [String: JSONValue] = [:]
        if let data = try? JSONEncoder().encode(status), case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: data) {
            result = fields
        }
        result["pid"] = .integer(Int64(getpid()))
        result["controlClients"] = .integer(Int64(clients.withLock { $0 }))
        result["app"] = .string("WatchConnectivity")
        return Self.encode(.success(request.id, .object(result)))
    }

    private static func encode(_ response: ControlResponse) -> [UInt8] {
        let data = (try? JSONEncoder().encode(response)) ?? Data(#"{"ok":false}"#.utf8)
        return Array(data) + [UInt8(ascii: "\n")]
    }
}
