import ArgumentParser
import Foundation
import Glibc

/// `wcbench _trivial-server`: the trivial program of the cold-launch comparison. Started by
/// `systemd-socket-activate` with the listening socket as descriptor 3: accepts one connection, reads one
/// byte, answers one byte, exits.
struct TrivialServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_trivial-server", abstract: "Internal: socket-activated accept-and-answer.", shouldDisplay: false)

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["LISTEN_FDS"] == "1", environment["LISTEN_PID"] == String(getpid()) else {
            throw ValidationError("expects exactly one socket from systemd (LISTEN_FDS=1 for this pid)")
        }
        let connection = accept(3, nil, nil)
        guard connection >= 0 else { throw ExitCode(1) }
        var byte: UInt8 = 0
        guard UnixSockets.readExactly(connection, &byte, 1), UnixSockets.writeExactly(connection, &byte, 1) else {
            throw ExitCode(1)
        }
        close(connection)
    }
}
