import ArgumentParser
import WatchConnection
import WatchPairWire

/// `wcctl request TYPE JSON`: a typed request through the app's reliability layer (docs/WatchConnection.md).
struct RequestCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send a typed request through the reliability layer and print its response.",
        discussion: """
            The app's WatchConnection sends TYPE with the JSON body (any JSON value; sent
            as it is) in the wire form of docs/WatchConnection.md, so the peer's handler
            may be wcctl serve TYPE or the register call of a Swift app. It retries,
            falls back and queues as the strategy, mode and retry policy say, and the
            peer runs it at most once. Prints the response body as one JSON line (--json:
            {"response":…}).

            Strategies: messageWithUserInfoFallback (default), messageWithContextFallback,
            messageOnly, userInfoOnly, contextOnly. --mode queued (default) keeps a request
            that cannot go now; immediate fails at once with 7007. --retry default (3
            attempts in 10 s), patient (5 in 30 s), none, or N/SECONDS.

            Errors: 7014 (exit 114) when the peer has no handler for TYPE or its handler
            failed (the message names the type); 7012 (exit 112) when no response came
            within the retry policy's timeout; 7007 (exit 107) in immediate mode when the
            peer is not reachable; 7009 (exit 109) when the request is over 65,536 bytes,
            before anything is sent; 7001 (exit 101) when a queued request was cancelled,
            expired or dropped.

            EXAMPLE
              wcctl serve FetchRecipe --reply '{"title":"Soup"}' &     # the phone
              wcctl --side watch request FetchRecipe '{"id":"42"}'     # prints the reply
              wcctl --side watch request Sync '{}' --strategy messageOnly --mode immediate
              wcctl --side watch request Sync @body.json --retry 5/30
            """
    )

    @ParentCommand var root: Wcctl

    @Argument(help: ArgumentHelp("The request type's wire name.", valueName: "type"))
    var requestType: String

    @Argument(help: ArgumentHelp("The body: JSON, @FILE or - (standard input).", valueName: "json"))
    var body: String

    @Option(help: ArgumentHelp("The delivery strategy (default messageWithUserInfoFallback).", valueName: "strategy"))
    var strategy: String?

    @Option(help: ArgumentHelp("queued (default) or immediate.", valueName: "mode"))
    var mode: String?

    @Option(help: ArgumentHelp("default, patient, none, or N/SECONDS.", valueName: "policy"))
    var retry: String?

    func validate() throws {
        if requestType.isEmpty { throw ValidationError("the request type must not be empty") }
        if let strategy, DeliveryStrategy(rawValue: strategy) == nil {
            let names = DeliveryStrategy.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--strategy must be one of \(names), not '\(strategy)'")
        }
        if let mode, DeliveryMode(rawValue: mode) == nil {
            throw ValidationError("--mode must be queued or immediate, not '\(mode)'")
        }
        if let retry, RetryPolicy(named: retry) == nil {
            throw ValidationError("--retry must be \(RetryPolicy.namedForms), not '\(retry)'")
        }
    }

    func execute(_ context: CommandContext) throws(CLIError) {
        let text = try context.jsonText(body)
        let value: JSONValue
        do throws(WCFailure) {
            value = try JSONValue.parse(text)
        } catch {
            throw CLIError(WCFailure(.invalidParameter, "body: \(error.message)"))
        }
        let client = try context.connect()
        var request = client.makeRequest("request")
        request.set("requestType", requestType)
        request.set("body", value)
        request.set("strategy", strategy)
        request.set("mode", mode)
        request.set("retry", retry)
        let result = try client.call(request, wait: Self.responseWait(mode: mode, retry: retry))
        try context.printJSON(context.json ? result : result[field: "response"] ?? .null)
    }

    /// How long to wait for the daemon's answer: the policy's timeout, plus the queue's expiry (1 h)
    /// in queued mode, plus a margin. A safety net only: the layer always ends a request itself.
    static func responseWait(mode: String?, retry: String?) -> Duration {
        let timeout = (retry.flatMap(RetryPolicy.init(named:)) ?? .default).timeout
        let queued = DeliveryMode(rawValue: mode ?? "queued") != .immediate
        return timeout + (queued ? .seconds(3600) : .zero) + .seconds(30)
    }
}
