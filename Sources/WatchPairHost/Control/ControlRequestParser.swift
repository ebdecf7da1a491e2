import Foundation
import WatchPairCore
import WatchPairWire

/// Turns one line from a control client into a validated ``ControlRequest``, or the 7008 error to send
/// back (docs/ControlProtocol.md). Pure: no I/O, no engine.
///
/// Checks, in order: the line's size (at most ``lineLimit`` bytes), UTF-8, then `ControlRequest(line:)`
/// (JSON, an object, an integer `id`, a known `op`, each field's JSON type), then what each op needs:
/// required fields, payloads that are objects, base64, transfer ids, channel and variant names, WCError
/// codes, positive timeouts (non-negative for `wait`), `receive`'s automatic answers. A `null` field counts as absent; unknown fields are ignored. Payload values
/// stay JSON; turning them into property lists (7010 for `null` inside) happens when the op runs.
public enum ControlRequestParser {
    /// The longest request line accepted: 1 MiB, without its newline.
    public static let lineLimit = 1 << 20

    /// The channels `receive` can deliver.
    public static let channels: Set<String> = ["message", "userInfo", "applicationContext", "didFinish"]
    /// `syncSet`'s `availability` names (KeyedSync's `SyncAvailability`, DESIGN §10).
    public static let availabilities = ["all", "phoneOnly", "watchOnly", "phoneWithWatchSync"]
    /// `syncSet`'s `policy` names (KeyedSync's `SyncPolicy`).
    public static let policies = ["never", "manual", "automaticSmall"]

    /// Parses one line (without its newline). A failure carries the request id when one was read.
    public static func parse(_ line: some Collection<UInt8>) -> Result<ControlRequest, ControlLineError> {
        guard line.count <= lineLimit else {
            return .failure(ControlLineError(id: nil, failure: WCFailure(.invalidParameter, "the request line is longer than \(lineLimit) bytes")))
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            return .failure(ControlLineError(id: nil, failure: WCFailure(.invalidParameter, "the request line is not valid UTF-8")))
        }
        var request: ControlRequest
        do {
            request = try ControlRequest(line: text)
        } catch {
            return .failure(error)
        }
        do {
            try validate(&request)
        } catch {
            return .failure(ControlLineError(id: request.id, failure: error))
        }
        return .success(request)
    }

    /// Checks the fields `request.op` reads; turns JSON `null` payloads into absent ones.
    static func validate(_ request: inout ControlRequest) throws(WCFailure) {
        func absentIfNull(_ value: JSONValue?) -> JSONValue? { value == .null ? nil : value }
        request.message = absentIfNull(request.message)
        request.userInfo = absentIfNull(request.userInfo)
        request.context = absentIfNull(request.context)
        request.autoReply = absentIfNull(request.autoReply)
        request.reply = absentIfNull(request.reply)
        request.metadata = absentIfNull(request.metadata)

        let op = request.op
        func need<T>(_ name: String, _ value: T?) throws(WCFailure) -> T {
            guard let value else { throw WCFailure(.invalidParameter, "'\(op.rawValue)' needs '\(name)'") }
            return value
        }
        func object(_ name: String, _ value: JSONValue?) throws(WCFailure) {
            if let value, case .object = value { return }
            if value != nil { throw wrong(name, "an object") }
        }
        func uuid(_ name: String, _ text: String) throws(WCFailure) {
            guard UUID(uuidString: text) != nil else { throw wrong(name, "a transfer id (UUID)") }
        }
        func timeout() throws(WCFailure) {
            guard let seconds = request.timeout else { return }
            guard seconds.isFinite, seconds > 0, seconds <= 86_400 else { throw wrong("timeout", "a number of seconds in (0, 86400]") }
        }

        // `receive`'s and `serve`'s automatic answers.
        func autoAnswer() throws(WCFailure) {
            if let code = request.autoError, WCErrorCode(rawValue: code) == nil {
                throw wrong("autoError", "a WCError code (7001…7018)")
            }
            if let delay = request.autoDelay, !(delay.isFinite && delay >= 0 && delay <= 86_400) {
                throw wrong("autoDelay", "a number of seconds in [0, 86400]")
            }
            if request.autoReply != nil, request.autoError != nil {
                throw WCFailure(.invalidParameter, "'autoReply' and 'autoError' exclude each other")
            }
        }

        switch op {
        case .status, .transfers, .contextGet, .events, .health, .queue, .connect, .disconnect, .syncList, .syncNow:
            break
        case .syncSet, .syncGet:
            guard try !need("key", request.key).isEmpty else { throw wrong("key", "a non-empty string") }
            if op == .syncSet { _ = try need("value", request.value) }
            if let name = request.availability, !Self.availabilities.contains(name) {
                throw wrong("availability", Self.availabilities.joined(separator: ", "))
            }
            if let name = request.policy, !Self.policies.contains(name) {
                throw wrong("policy", Self.policies.joined(separator: ", "))
            }
        case .send:
            try object("message", need("message", request.message))
            try timeout()
        case .sendData:
            guard Data(base64Encoded: try need("data", request.data)) != nil else { throw wrong("data", "base64") }
            try timeout()
        case .transfer, .transferComplication:
            try object("userInfo", need("userInfo", request.userInfo))
        case .cancel, .cancelFile:
            try uuid("transferId", need("transferId", request.transferId))
        case .transferFile:
            let path = try need("path", request.path)
            // Named in the error, as every refused file is (the daemon's working directory is not the client's).
            guard path.hasPrefix("/") else { throw wrong("path", "an absolute path, not \(path)") }
            try object("metadata", request.metadata)
        case .files:
            break
        case .uninstall, .install, .open:
            break
        case .setComplication:
            _ = try need("enabled", request.enabled)
        case .contextSet:
            try object("context", need("context", request.context))
        case .receive:
            if let channels = request.channels, let bad = channels.first(where: { !Self.channels.contains($0) }) {
                throw wrong("channels", "a list of \(Self.channels.sorted().joined(separator: ", ")) (got '\(bad)')")
            }
            let variants = Set(MessageVariant.allCases.map(\.rawValue))
            if let handle = request.handle, let bad = handle.first(where: { !variants.contains($0) }) {
                throw wrong("handle", "a list of \(variants.sorted().joined(separator: ", ")) (got '\(bad)')")
            }
            try object("autoReply", request.autoReply)
            try autoAnswer()
            let handles = request.handle != nil || request.autoReply != nil || request.autoError != nil || request.autoDelay != nil
            if handles, request.follow != true {
                throw WCFailure(.invalidParameter, "'handle', 'autoReply', 'autoError' and 'autoDelay' need 'follow': true")
            }
        case .ack:
            for transferId in request.finished ?? [] { try uuid("finished", transferId) }
            if request.deliveryId == nil, request.finished == nil, request.contextVersion == nil {
                throw WCFailure(.invalidParameter, "'ack' needs 'deliveryId', 'finished' or 'contextVersion'")
            }
        case .wait:
            let condition = try need("condition", request.condition)
            if let type = request.requestType {
                guard condition == .handler else { throw WCFailure(.invalidParameter, "'requestType' is for the 'handler' condition only") }
                guard !type.isEmpty else { throw wrong("requestType", "a non-empty string") }
            }
            if let seconds = request.timeout, !(seconds.isFinite && seconds >= 0) {
                throw wrong("timeout", "a non-negative number of seconds")
            }
        case .request:
            guard try !need("requestType", request.requestType).isEmpty else { throw wrong("requestType", "a non-empty string") }
        case .serve:
            guard try !need("requestType", request.requestType).isEmpty else { throw wrong("requestType", "a non-empty string") }
            try autoAnswer()
            if request.answers == true, request.autoReply != nil || request.autoError != nil || request.autoDelay != nil {
                throw WCFailure(.invalidParameter, "'answers' excludes 'autoReply', 'autoError' and 'autoDelay'")
            }
        case .queueCancel:
            if let requestId = request.requestId { guard UUID(uuidString: requestId) != nil else { throw wrong("requestId", "a request id (UUID)") } }
            guard (request.requestId != nil) != (request.all == true) else {
                throw WCFailure(.invalidParameter, "'queueCancel' needs exactly one of 'requestId' and 'all': true")
            }
        case .answer, .respond:
            _ = try need("token", request.token)
            if let code = request.errorCode, WCErrorCode(rawValue: code) == nil {
                throw wrong("errorCode", "a WCError code (7001…7018)")
            }
            guard (request.reply == nil) != (request.errorCode == nil) else {
                throw WCFailure(.invalidParameter, "'\(op.rawValue)' needs exactly one of 'reply' and 'errorCode'")
            }
        }
    }

    private static func wrong(_ name: String, _ expected: String) -> WCFailure {
        WCFailure(.invalidParameter, "'\(name)' must be \(expected)")
    }
}
