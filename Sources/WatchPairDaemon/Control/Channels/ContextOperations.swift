import WatchPairCore
import WatchPairHost
import WatchPairWire

/// `contextSet`: `updateApplicationContext`.
struct ContextSetOperation: ControlOperation {
    static let name = "contextSet"

    var context: PlistDictionary

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        context = try Self.required("context", from: &fields) { fields throws(WCFailure) in try fields.dictionary() }
    }
}

/// `contextGet`: `applicationContext`, or with `received` the `receivedApplicationContext`.
struct ContextGetOperation: ControlOperation {
    static let name = "contextGet"

    var received = false

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        received = try fields.only("received") { fields throws(WCFailure) in try fields.bool() } ?? false
    }
}

/// The application context channel's operations.
struct ContextOperations {
    let channels: AppChannels

    func register(on router: inout ControlRouter) {
        router.register(ContextSetOperation.self) { request, _ throws(WCFailure) in try await set(request.context) }
        router.register(ContextGetOperation.self) { request, _ throws(WCFailure) in
            // From the store rather than the engine, so the version and the dictionary come from one read.
            let stored = try await read(received: request.received)
            return .object(["context": ControlJSON.json(stored?.payload ?? [:]), "version": ControlJSON.integer(stored?.version ?? 0)])
        }
    }

    private func set(_ context: PlistDictionary) async throws(WCFailure) -> JSONValue {
        if let stored = try await channels.updateApplicationContext(context) {
            return .object(["version": ControlJSON.integer(stored.version), "changed": .bool(true)])
        }
        let current = try await read(received: false)
        return .object(["version": ControlJSON.integer(current?.version ?? 0), "changed": .bool(false)])
    }

    /// The received or the sent context with its version, from one read.
    private func read(received: Bool) async throws(WCFailure) -> StoredContext? {
        received ? try await channels.receivedContext() : try await channels.sentContext()
    }
}
