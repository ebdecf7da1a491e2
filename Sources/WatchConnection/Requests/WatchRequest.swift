import Synchronization

/// A typed request with a typed response, sent with `WatchConnection.send(_:strategy:delivery:retryPolicy:)`
/// and answered by the handler the receiving app registers with `WatchConnection.register(_:handler:)`.
///
/// ```swift
/// struct FetchRecipe: WatchRequest {
///     typealias Response = Recipe
///     let id: String
/// }
/// ```
///
/// Requests and responses cross as JSON (`JSONEncoder`'s default strategies), inside the envelope
/// described in docs/WatchConnection.md; `requestType` names the type on the wire.
public protocol WatchRequest: Codable, Sendable {
    /// What the receiver answers.
    associatedtype Response: Codable & Sendable

    /// The name of this request type on the wire; both apps must agree on it. Default: the type's
    /// name without its module (`String(describing: Self.self)`), e.g. `"FetchRecipe"`.
    static var requestType: String { get }
}

extension WatchRequest {
    /// The type's name without its module.
    public static var requestType: String { RequestTypeNames.name(of: Self.self) }
}

/// Each request type's default name, made once: `String(describing:)` reads the type's metadata every
/// time, and a sender asks for the name of every request it sends.
enum RequestTypeNames {
    /// Bound: one entry per request type of the program.
    private static let names = Mutex<[ObjectIdentifier: String]>([:])

    static func name(of type: Any.Type) -> String {
        names.withLock { names in
            if let name = names[ObjectIdentifier(type)] { return name }
            let name = String(describing: type)
            names[ObjectIdentifier(type)] = name
            return name
        }
    }
}

/// A request that needs no answer: `send(_:)` returns once it is handed to the session (or queued),
/// and a failure is only reported through `diagnosticEvents`.
public protocol FireAndForgetRequest: WatchRequest where Response == VoidResponse {}

/// The response of a `FireAndForgetRequest`: nothing.
public struct VoidResponse: Codable, Sendable, Hashable {
    /// The empty response.
    public init() {}
}
