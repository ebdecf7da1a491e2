import ArgumentParser
import WatchPairWire

/// The kinds of items `receive` can deliver (`--channel`).
public enum ReceiveChannel: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Live messages (only with `--follow`).
    case message
    /// Received userInfo transfers.
    case userInfo
    /// The received application context, when the app has not seen it yet.
    case applicationContext
    /// Notices that this app's own transfers were received by the peer.
    case didFinish
}

/// `wcctl receive`: act as the app, print what arrives, acknowledge it, answer messages.
struct ReceiveCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "receive",
        abstract: "Act as the app: print what arrives, one JSON line each, and take it.",
        discussion: """
            Prints each item as one JSON line, then acknowledges it, so the daemon does
            not deliver it again (durable items printed but not acknowledged, say
            because wcctl was killed in between, are delivered again next time).
            Each line has "channel" and the item's fields:
              userInfo            receivedAt, seq, transferId, userInfo
              applicationContext  context, version
              didFinish           seq, transferId, userInfo (a transfer of ours arrived)
              message             variant (dictionary, dictionaryWithReply, data,
                                  dataWithReply), message, or data as {"$data":…}
            {"channel":"userInfo","receivedAt":"…","seq":3,"transferId":"…","userInfo":{}}

            Without --follow: prints the pending userInfo, context and didFinish items
            and exits 0 (messages are live and need --follow).
            With --follow: keeps going until Ctrl-C or SIGTERM (exit 0) or until the
            daemon stops (exit 3), and becomes the app's message handler: it takes
            messages sent without a reply handler; with --reply it also answers those
            that want a reply (a dictionary reply answers dictionary messages, a
            {"$data":…} reply answers data messages). Messages nobody handles fail at
            the sender with 7014.

            \(HelpText.userInfo)
            \(HelpText.applicationContext)
            \(HelpText.message)

            App-level faults, so the sender sees what a slow or failing app gives it:
            --delay S holds each message S seconds before answering (past the
            sender's --timeout: 7012 messageReplyTimedOut); --error CODE answers
            every message that wants a reply with that WCError (e.g. 7011).

            EXAMPLE
              wcctl --side watch receive                      # take what is pending
              wcctl --side watch receive --follow --reply '{"ok":true}'
              wcctl --side watch receive --follow --reply @reply.json --delay 3
              wcctl --side watch receive --follow --error 7011
              wcctl receive --follow --channel userInfo --channel didFinish
            """
    )

    @ParentCommand var root: Wcctl

    @Flag(help: "Keep receiving until interrupted, and handle live messages.")
    var follow = false

    @Option(
        name: .customLong("channel"),
        help: ArgumentHelp("Only this kind of item (repeatable): message, userInfo, applicationContext, didFinish.", valueName: "channel"))
    var channels: [ReceiveChannel] = []

    @Option(help: ArgumentHelp("With --follow: answer messages that want a reply with this JSON object (or @FILE, -).", valueName: "json"))
    var reply: String?

    @Option(help: ArgumentHelp(
        "With --follow: answer messages that want a reply with this WCError code instead (e.g. 7011).",
        valueName: "code"))
    var error: Int?

    @Option(help: ArgumentHelp(
        "With --follow: take this long over each message before answering or confirming it.",
        valueName: "seconds"))
    var delay: Double?

    @Flag(name: .customLong("no-ack"), help: "Print without acknowledging: the items stay pending.")
    var noAck = false

    func validate() throws {
        for (name, given) in [("--reply", reply != nil), ("--error", error != nil), ("--delay", delay != nil)] where given {
            if !follow { throw ValidationError("\(name) handles live messages and needs --follow") }
            if !channels.isEmpty && !channels.contains(.message) {
                throw ValidationError("\(name) needs the message channel (add --channel message)")
            }
        }
        if reply != nil && error != nil {
            throw ValidationError("--reply and --error exclude each other: a message gets a reply or an error")
        }
        try validateErrorCode(error)
        if let delay, !(delay >= 0 && delay.isFinite) {
            throw ValidationError("--delay must be a non-negative number of seconds, not \(delay)")
        }
    }

    func execute(_ context: CommandContext) throws(CLIError) {
        let replyValue = try reply.map { text throws(CLIError) in try Payload.reply(context.jsonText(text)) }
        let handling = MessageHandling(
            follow: follow, channels: channels, reply: replyValue, error: error.flatMap(WCErrorCode.init(rawValue:)),
            delay: delay)
        let client = try context.connect()
        var request = client.makeRequest("receive")
        request.set("follow", follow)
        request.set("channels", channels.isEmpty ? nil : Self.unique(channels).map(\.rawValue))
        handling.apply(to: &request)
        var session = ReceiveSession(client: client, streams: context.streams, acknowledge: !noAck)
        if follow {
            try session.follow(request, interruptDescriptor: context.environment.interruptDescriptor())
        } else {
            try session.takePending(request)
        }
    }

    private static func unique(_ channels: [ReceiveChannel]) -> [ReceiveChannel] {
        var seen: Swift.Set<ReceiveChannel> = []
        return channels.filter { seen.insert($0).inserted }
    }
}

/// `--error` (an app-level fault) must be a WCError code.
func validateErrorCode(_ code: Int?) throws {
    if let code, WCErrorCode(rawValue: code) == nil {
        let codes = WCErrorCode.allCases.map { String($0.rawValue) }.joined(separator: ", ")
        throw ValidationError("--error must be a WCError code (\(codes)), not \(code)")
    }
}
