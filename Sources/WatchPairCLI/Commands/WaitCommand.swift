import ArgumentParser
import WatchPairWire

/// What `wait` blocks for: the daemon's `wait` conditions (docs/ControlProtocol.md).
enum WaitCondition: String, CaseIterable, ExpressibleByArgument {
    case ready, reachable, drained, idle, handler
}

/// `wcctl wait ready|reachable|drained|idle|handler [TYPE] [--timeout S]`: block until the app's state allows
/// the next step.
struct WaitCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        abstract: "Wait until the app is ready, the peer reachable, the queues drained, the link idle, or a handler attached.",
        discussion: """
            Blocks until the condition holds, then exits 0 (prints nothing; --json
            prints {"met":true}). With --timeout, exits 4 when it does not hold in time.
              ready      the app is up: its session is activated
              reachable  the peer app is reachable (isReachable)
              drained    nothing outstanding: every userInfo transfer received by
                         the peer, and the peer holds the newest context sent
              idle       drained, no live message in flight, no link being opened
              handler    a `receive --follow` app handles messages: one sent
                         now is delivered to it (not 7014)
              handler TYPE
                         a `serve TYPE` app handles typed requests of TYPE: one
                         sent now runs its handler (not 7014)

            Every condition first waits for the app's control socket to appear, so
            `wait ready` right after starting a daemon is safe. The daemon checks
            the condition on its own state changes; nothing polls.

            EXAMPLE
              watchd --config watchd.json &
              wcctl --side watch wait ready --timeout 10
              wcctl transfer '{"n":1}'
              wcctl wait drained --timeout 30    # the watch has it
              wcctl serve Ping --reply '{}' &
              wcctl wait handler Ping --timeout 10
            """
    )

    @ParentCommand var root: Wcctl

    @Argument(help: ArgumentHelp("ready, reachable, drained, idle or handler.", valueName: "condition"))
    var condition: WaitCondition

    @Argument(help: ArgumentHelp("With handler: the request type a `serve` app must handle.", valueName: "type"))
    var requestType: String?

    @Option(help: ArgumentHelp("Give up after this many seconds (exit 4). Default: wait as long as it takes.", valueName: "seconds"))
    var timeout: Double?

    func validate() throws {
        try validateTimeout(timeout)
        if let requestType {
            guard condition == .handler else { throw ValidationError("a request type is for 'wait handler TYPE' only") }
            guard !requestType.isEmpty else { throw ValidationError("the request type must not be empty") }
        }
    }

    func execute(_ context: CommandContext) throws(CLIError) {
        let deadline = timeout.map { ContinuousClock.now.advanced(by: .seconds($0)) }
        guard let client = try context.connectWhenRunning(deadline: deadline) else { throw timedOut(after: timeout) }
        var request = client.makeRequest("wait")
        request.set("condition", condition.rawValue)
        request.set("requestType", requestType)
        let remaining = deadline.map { ContinuousClock.now.duration(to: $0) }
        request.set("timeout", remaining.map { max(0, Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) })
        // The daemon answers at the timeout; the margin only guards against a daemon that never does.
        let result = try client.call(request, wait: (remaining ?? Payload.forever) + Payload.requestWait)
        guard result[field: "met"] == .bool(true) else { throw timedOut(after: timeout) }
        if context.json { try context.printJSON(result) }
    }

    private func timedOut(after timeout: Double?) -> CLIError {
        let limit = timeout.map { Duration.seconds($0).formattedSeconds } ?? "the timeout"
        let what = requestType.map { "\(condition.rawValue) \($0)" } ?? condition.rawValue
        return CLIError(.timedOut, "\(what): not reached within \(limit)")
    }
}
