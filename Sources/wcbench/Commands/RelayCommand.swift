import ArgumentParser

/// `wcbench _relay --loop blocking|epoll [--echo]`: a relaying process of the relay floor (BENCHMARKS.md,
/// "The floor of four crossings"). Relays descriptor 3 (toward the client) to descriptor 4 (toward the
/// far end) and back; with `--echo` it is the far end and echoes descriptor 3. Exits at end of stream.
struct RelayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_relay", abstract: "Internal: zero-work relay between descriptors 3 and 4 (relay floor).",
        shouldDisplay: false)

    @Option(help: "How to wait for the sockets: blocking or epoll.")
    var loop: RelayLoop

    @Flag(help: "Echo descriptor 3 back to itself (the far end) instead of relaying it to descriptor 4.")
    var echo = false

    func run() throws {
        if echo {
            try loop.echo(3)
        } else {
            try loop.relay(up: 3, down: 4)
        }
    }
}

extension RelayLoop: ExpressibleByArgument {}
