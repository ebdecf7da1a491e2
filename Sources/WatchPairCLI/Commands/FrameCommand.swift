import ArgumentParser
import Foundation
import WatchPairWire

/// `wcctl frame KIND [JSON]`: prints one peer-link frame, for fault injection with socat.
///
/// Works offline (no daemon needed). The bytes are exactly what a daemon writes, so they can be piped
/// into a daemon's link socket to play an unknown or misbehaving peer.
struct FrameCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "frame",
        abstract: "Print a raw peer-link frame (for fault injection with socat).",
        discussion: """
            Writes the binary frame to stdout (or hex with --hex), exactly as a daemon
            would put it on the peer link (docs/WireFormat.md). No daemon is contacted.
            KIND is one of:
              hello      a handshake from --side (default phone) of pair --pair
                         (wcctl's own --pair, or $WCCTL_PAIR; else the default
                         pair, whose id is "default")
              message    a live message with the JSON dictionary (--no-reply for
                         the no-reply variant)
              userInfo   a userInfo transfer with the JSON dictionary, --seq, --after
              context    an application context with the JSON dictionary, --version
              ping       a keep-alive
            --truncate N cuts the output to its first N bytes (a peer that dies
            mid-frame); --corrupt N flips every bit of byte N (caught by the checksum).

            EXAMPLES
              # a valid hello from a peer of another pair: refused (handshakeFailed)
              wcctl frame hello --pair intruder |
                socat -t1 - UNIX-CONNECT:/run/watchpair/watchd.sock
              # a hello followed by a transfer, as a phone would send them
              { wcctl frame hello; wcctl frame userInfo '{"n":1}' --seq 1; } |
                socat -t2 - UNIX-CONNECT:/run/watchpair/watchd.sock
              # half a frame, then the connection closes (frameRejected: truncated)
              wcctl frame userInfo '{"n":1}' --truncate 9 |
                socat - UNIX-CONNECT:/run/watchpair/watchd.sock
            """
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case hello, message, userInfo, context, ping
    }

    @ParentCommand var root: Wcctl

    @Argument(help: "The frame kind: hello, message, userInfo, context or ping.")
    var kind: Kind

    @Argument(help: ArgumentHelp("The payload dictionary (message, userInfo, context): JSON, @FILE or -.", valueName: "json"))
    var payload: String?

    @Option(help: "Launch mode for hello: foreground or background.") var launch: String = "foreground"
    @Option(help: "Sequence number (userInfo) or message id (message).") var seq: UInt64 = 1
    @Option(help: "userInfo: the seq this one follows (0 for the first).") var after: UInt64 = 0
    @Option(help: "Context version.") var version: UInt64 = 1
    @Flag(help: "message: the no-reply variant.") var noReply = false
    @Option(help: "Print only the first N bytes.") var truncate: Int?
    @Option(help: "Flip every bit of byte N (0-based).") var corrupt: Int?
    @Flag(help: "Print hex instead of raw bytes.") var hex = false

    func execute(_ context: CommandContext) throws(CLIError) {
        let payloadText = try payload.map { argument throws(CLIError) in try context.jsonText(argument) } ?? "{}"
        // The hello's pair id is the pair wcctl addresses: `--pair NAME` plays an app of pair NAME.
        let pairId = PairName.label(of: context.target.pair)
        var bytes = FrameEncoder.encode(try frame(role: root.globals.side?.role ?? .phone, pairId: pairId, payload: payloadText))
        if let corrupt {
            guard bytes.indices.contains(corrupt) else {
                throw CLIError(WCFailure(.invalidParameter, "--corrupt \(corrupt) is past the frame's \(bytes.count) bytes"))
            }
            bytes[corrupt] ^= 0xFF
        }
        if let truncate { bytes = Array(bytes.prefix(max(0, truncate))) }
        if hex {
            try context.print(bytes.map { String(format: "%02x", $0) }.joined())
        } else {
            try context.streams.writeOut(bytes)
        }
    }

    private func frame(role: Role, pairId: String, payload: String) throws(CLIError) -> Frame {
        switch kind {
        case .hello:
            guard let mode = LaunchMode(rawValue: launch) else {
                throw CLIError(WCFailure(.invalidParameter, "--launch must be foreground or background"))
            }
            return .hello(Hello(
                role: role, pairId: pairId, storeId: UUID(), launch: mode,
                resume: ResumeState(peerStoreId: nil, lastUserInfoSeq: 0, contextVersion: 0)
            ))
        case .message:
            return .message(id: seq, wantsReply: !noReply, body: .dictionary(try Self.dictionary(payload)))
        case .userInfo:
            return .userInfo(seq: seq, after: after, transferId: UUID(), payload: try Self.dictionary(payload))
        case .context:
            return .context(version: version, payload: try Self.dictionary(payload))
        case .ping:
            return .ping(nonce: seq)
        }
    }

    private static func dictionary(_ text: String) throws(CLIError) -> PlistDictionary {
        do {
            return try PlistJSON.dictionary(fromJSONText: text)
        } catch {
            throw CLIError(WCFailure(error.code, "payload: \(error.message)"))
        }
    }
}
