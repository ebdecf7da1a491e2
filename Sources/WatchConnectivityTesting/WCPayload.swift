import WatchConnectivity
import WatchPairWire

/// A message, userInfo, application context or reply dictionary as a value that may cross tasks.
///
/// WatchConnectivity hands the app `[String: Any]`, which is not `Sendable`, so a test that awaits a
/// callback or a reply in Swift 6 cannot take that dictionary out of the delegate queue. The test kit
/// gives it as this value instead: the property-list ``values`` (typed, `Hashable`), and the same
/// dictionary as the app sees it (``dictionary``, ``subscript(_:)``: numbers as `NSNumber`, so `as? Int`,
/// `as? Double` and `as? Bool` all work).
///
/// ```swift
/// let reply = try await pair.phone.sendMessageAwaitingReply(["get": "list"])
/// #expect(reply["items"] as? [String] == ["milk"])
/// #expect(reply == ["items": ["milk"]])
/// ```
public struct WCPayload: Sendable, Hashable, CustomStringConvertible, ExpressibleByDictionaryLiteral {
    /// The property-list values.
    public let values: PlistDictionary

    /// A payload of these values.
    public init(values: PlistDictionary) {
        self.values = values
    }

    /// The payload of an app's dictionary; throws `WCError` 7010 (`payloadUnsupportedTypes`), naming
    /// the key, for a value that is not a property list (as `sendMessage` reports it).
    public init(_ dictionary: [String: Any]) throws(WCError) {
        values = try PropertyListBridge.plist(from: dictionary)
    }

    /// A payload written in a test, e.g. `["items": ["milk"], "count": 1]`.
    ///
    /// Every value must be a property-list type (a test's literal, so a mistake stops the test process
    /// with the key that is wrong); later duplicates of a key win.
    public init(dictionaryLiteral elements: (String, Any)...) {
        let dictionary = Dictionary(elements, uniquingKeysWith: { _, last in last })
        do {
            values = try PropertyListBridge.plist(from: dictionary)
        } catch {
            preconditionFailure("WCPayload literal: \(error.localizedDescription)")
        }
    }

    /// The dictionary as the app's delegate gets it.
    public var dictionary: [String: Any] {
        PropertyListBridge.object(from: values)
    }

    /// The value under `key` as the app's delegate gets it, or nil.
    public subscript(_ key: String) -> Any? {
        values[key].map(PropertyListBridge.object(from:))
    }

    /// The values as JSON text (keys sorted), e.g. `{"items":["milk"]}`.
    public var description: String {
        PlistJSON.text(of: values)
    }
}
