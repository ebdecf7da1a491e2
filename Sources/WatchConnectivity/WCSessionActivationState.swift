/// The activation state of a `WCSession`, with Apple's raw values.
///
/// A session starts `notActivated`; `activate()` moves it to `activated` (reported through
/// `session(_:activationDidCompleteWith:error:)`). It becomes `inactive`, then `notActivated` again, only
/// when its engine stops for good (see `WCSessionDelegate.sessionDidBecomeInactive(_:)`).
public enum WCSessionActivationState: Int, Sendable, Hashable, CustomStringConvertible {
    /// Not activated: nothing is sent or received.
    case notActivated = 0
    /// Was active and is shutting down: the delegate may still receive data, sends fail with 7016.
    case inactive = 1
    /// Active: the three channels work.
    case activated = 2

    /// `notActivated`, `inactive` or `activated`.
    public var description: String {
        switch self {
        case .notActivated: "notActivated"
        case .inactive: "inactive"
        case .activated: "activated"
        }
    }
}
