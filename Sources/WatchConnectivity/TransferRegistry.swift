import Foundation
import WatchPairCore

/// The transfer objects (`WCSessionUserInfoTransfer`, `WCSessionFileTransfer`) the app may still hold,
/// by transfer id, so the object returned by `transferUserInfo`/`transferFile` is the one later listed as
/// outstanding and passed to `didFinish`.
///
/// Holds objects weakly: the registry never keeps a payload alive on its own. Bound: entries whose object
/// is gone are pruned whenever the table has doubled since the last pruning, so it holds at most about
/// twice the number of transfer objects the app keeps alive.
struct TransferRegistry<Transfer: AnyObject> {
    private final class WeakTransfer {
        weak var transfer: Transfer?
        init(_ transfer: Transfer) { self.transfer = transfer }
    }

    private var entries: [UUID: WeakTransfer] = [:]
    private var pruneAt = 64

    /// The live object for `id`, if the app still holds it.
    func object(for id: UUID) -> Transfer? {
        entries[id]?.transfer
    }

    /// Remembers `transfer` under `id`.
    mutating func insert(_ transfer: Transfer, for id: UUID) {
        entries[id] = WeakTransfer(transfer)
        if entries.count >= pruneAt {
            entries = entries.filter { $0.value.transfer != nil }
            pruneAt = max(64, entries.count * 2)
        }
    }

    /// Forgets `id` (finished or cancelled) and returns its object if still alive.
    @discardableResult
    mutating func remove(_ id: UUID) -> Transfer? {
        entries.removeValue(forKey: id)?.transfer
    }
}
