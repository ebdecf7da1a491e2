import ArgumentParser
import Glibc

/// `wcbench _echo`: the far end of the raw ping-pong. Echoes every byte read on descriptor 3 (one end of
/// a socketpair wcbench hands over) until end of stream. No framing, no parsing: the machine's floor.
struct EchoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_echo", abstract: "Internal: echo descriptor 3 (raw ping-pong peer).", shouldDisplay: false)

    func run() throws {
        let fd: Int32 = 3
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            guard buffer.withUnsafeBytes({ UnixSockets.writeExactly(fd, $0.baseAddress!, n) }) else { return }
        }
    }
}
