import Testing

@testable import Systemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ProcessStateTests {
    @Suite struct PendingConnectionTests {
        @Test func reportsPendingConnectionWithoutConsumingIt() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = "\(directory.path)/peer.sock"
            let listener = try makeUnixSocket(type: Int32(SOCK_STREAM.rawValue), path: path, listen: true)
            defer { close(listener) }

            #expect(!hasPendingConnection(listeningFD: listener))
            let client = try connectUnixStream(path: path)
            defer { close(client) }
            #expect(hasPendingConnection(listeningFD: listener))
            #expect(hasPendingConnection(listeningFD: listener), "checking must not consume the connection")

            let accepted = accept(listener, nil, nil)
            #expect(accepted >= 0)
            if accepted >= 0 { close(accepted) }
            #expect(!hasPendingConnection(listeningFD: listener))
        }

        @Test func falseForInvalidDescriptor() {
            #expect(!hasPendingConnection(listeningFD: -1))
        }
    }
}
