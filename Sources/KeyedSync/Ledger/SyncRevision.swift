/// The order of a key's values: a Lamport counter and the app that wrote it.
///
/// A change gets a counter above every counter this app has seen for the key, so a value written after
/// another was seen always orders after it; two changes made concurrently on both apps (same counter)
/// order by writer, the phone's last, so both apps settle on the same value.
public struct SyncRevision: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// Counts the key's changes as its writer saw them.
    public var counter: UInt64
    /// The app that wrote the value.
    public var writer: SyncSide

    public init(counter: UInt64, writer: SyncSide) {
        self.counter = counter
        self.writer = writer
    }

    public static func < (lhs: SyncRevision, rhs: SyncRevision) -> Bool {
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        return lhs.writer == .watch && rhs.writer == .phone
    }

    /// `7@phone`.
    public var description: String { "\(counter)@\(writer.rawValue)" }
}
