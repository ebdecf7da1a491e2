import ArgumentParser

/// `wcbench _echo`: the far end of the raw ping-pong. Echoes every byte read on descriptor 3 (one end of
/// a socketpair wcbench hands over) until end of stream. No framing, no parsing: the machine's floor.
struct EchoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_echo", abstract: "Internal: echo descriptor 3 (raw ping-pong peer).", shouldDisplay: false)

    func run() throws {
        try RelayLoop.blocking.echo(3)
    }
}
