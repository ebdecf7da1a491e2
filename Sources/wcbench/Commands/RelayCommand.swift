import ArgumentParser
import Glibc

/// `wcbench _relay --loop blocking|epoll|nio|nioEvents [--echo] [--history PATH]`: a relaying process of
/// the relay floor (BENCHMARKS.md, "The floor of four crossings"). Relays descriptor 3 (toward the client)
/// to descriptor 4 (toward the far end) and back; with `--echo` it is the far end and echoes descriptor 3.
/// Exits at end of stream. `nioEvents` appends its event lines to the `--history` file.
struct RelayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_relay", abstract: "Internal: zero-work relay between descriptors 3 and 4 (relay floor).",
        shouldDisplay: false)

    @Option(help: "How to wait for the sockets: blocking, epoll, nio or nioEvents.")
    var loop: RelayLoop

    @Option(help: "The file nioEvents appends its event lines to.")
    var history: String?

    @Flag(help: "Echo descriptor 3 back to itself (the far end) instead of relaying it to descriptor 4.")
    var echo = false

    func run() throws {
        var historyFile: Int32?
        if let history {
            let fd = open(history, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw BenchError.system("open(\(history))", errno: errno) }
            historyFile = fd
        }
        defer { if let historyFile { close(historyFile) } }
        if echo {
            try loop.echo(3, history: historyFile)
        } else {
            try loop.relay(up: 3, down: 4, history: historyFile)
        }
    }
}

extension RelayLoop: ExpressibleByArgument {}
