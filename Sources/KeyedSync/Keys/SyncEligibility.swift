/// Why a key's value is not sent, or that it is: the pure rule (docs/KeyedSync.md, "Keys").
///
/// Eligible: availability `.all` (either app) or `.phoneWithWatchSync` (the phone only), and policy
/// `.manual`, or `.automaticSmall` with the value's encoded size within `maxAutoSyncSize`. `.manual` keys
/// go only when the app asks; everything else eligible goes on every change as well.
public enum SyncEligibility: Sendable, Hashable, Codable {
    /// Sent on every change and in every snapshot.
    case automatic
    /// Sent when the app asks, and in every snapshot after that.
    case onRequest
    /// Not sent, and why.
    case ineligible(SyncBlock)

    /// The decision for a value of `size` bytes under `options`, on `side`.
    public static func of(_ options: SyncKeyOptions, on side: SyncSide, size: Int, maxAutoSyncSize: Int) -> SyncEligibility {
        switch (options.availability, side) {
        case (.phoneOnly, _), (.watchOnly, _): return .ineligible(.notShared(options.availability))
        case (.phoneWithWatchSync, .watch): return .ineligible(.phoneOwned)
        case (.all, _), (.phoneWithWatchSync, .phone): break
        }
        switch options.policy {
        case .never: return .ineligible(.policyNever)
        case .manual: return .onRequest
        case .automaticSmall:
            return size <= maxAutoSyncSize ? .automatic : .ineligible(.tooLarge(size: size, limit: maxAutoSyncSize))
        }
    }

    /// Whether a value under this decision may be sent at all.
    public var isSendable: Bool {
        if case .ineligible = self { return false }
        return true
    }
}

/// Why a key's value is not sent.
public enum SyncBlock: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `.phoneOnly` or `.watchOnly`: the key stays in its app.
    case notShared(SyncAvailability)
    /// `.phoneWithWatchSync` on the watch: only the phone's changes cross.
    case phoneOwned
    /// Policy `.never`.
    case policyNever
    /// `.automaticSmall` with a value larger than `maxAutoSyncSize`.
    case tooLarge(size: Int, limit: Int)

    /// What `wcctl sync list` shows.
    public var description: String {
        switch self {
        case .notShared(let availability): "\(availability.rawValue): not shared"
        case .phoneOwned: "phoneWithWatchSync: only the phone's changes are sent"
        case .policyNever: "policy never"
        case .tooLarge(let size, let limit): "too large for automaticSmall: \(size) > \(limit) bytes"
        }
    }
}
