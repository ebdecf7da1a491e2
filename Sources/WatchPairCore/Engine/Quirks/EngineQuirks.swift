import Foundation
import WatchPairQuirks
import WatchPairWire

/// The quirks of real devices set on one engine (docs/Quirks.md), and what they hold back.
///
/// The decisions are the ``QuirkMachine``'s; this keeps what carrying them out needs between
/// opportunities: reachability hidden until its next change, the peer app shown not installed for a
/// while, a received context to give the app again, userInfo held back or stuck, late replies. Held
/// items come back through one ``DeadlineQueue`` on the engine's clock (no task per item).
///
/// Owned by one ``PairEngine`` and touched only on its actor. With nothing set, ``isEmpty`` is all the
/// hot paths read: every other member is only looked at behind it, and clearing the last quirk releases
/// everything held, so an empty machine never leaves state behind.
final class EngineQuirks {
    /// What a held item is, to be released when its time comes (or when its quirk is cleared).
    enum Held: Sendable {
        /// A reply to message `id` (`lateReply`), arriving after its call's deadline.
        case reply(id: UInt64, body: MessageBody)
        /// The app's received userInfo with this delivery id (`delayedDelivery`).
        case userInfo(deliveryId: UInt64)
        /// The received context of this version (`delayedDelivery`).
        case context(version: UInt64)
        /// The received file with this transfer id (`delayedDelivery`).
        case file(transferId: UUID)
        /// The peer app reads installed again (`installedFlapping`).
        case installed

        /// The quirk that held it.
        var quirk: Quirk {
            switch self {
            case .reply: .lateReply
            case .userInfo, .context, .file: .delayedDelivery
            case .installed: .installedFlapping
            }
        }
    }

    var machine: QuirkMachine
    /// `asymmetricReachability`: reachability reads false until its next real change.
    var reachabilityHidden = false
    /// The reachability the link last gave, to see its changes (each turn to true is an opportunity).
    var realReachable = false
    /// `installedFlapping`: the peer app reads not installed until ``Held/installed`` is released.
    var installationHidden = false
    /// `contextReplay`: the received context is pending for the app again until it is acknowledged.
    var replayContext = false
    /// `stuckUserInfo`: outbox transfers from this seq on are not sent until the next transfer.
    var stuckFrom: UInt64?
    /// `delayedDelivery`: the app's inbox is shown up to (not including) the lowest of these.
    var heldUserInfo: Set<UInt64> = []
    /// `delayedDelivery`: the received context of this version (or older) is not pending yet.
    var heldContext: UInt64?
    /// `delayedDelivery`: received files not shown to the app yet.
    var heldFiles: Set<UUID> = []

    /// Held items by key, released by ``timers``.
    var held: [UInt64: Held] = [:]
    private var nextKey: UInt64 = 0
    let timers: DeadlineQueue<UInt64>

    init(_ settings: [Quirk: QuirkSetting], clock: some Clock<Duration>) {
        machine = QuirkMachine(settings)
        timers = DeadlineQueue(clock: clock)
    }

    /// True when no quirk is set: the one check the hot paths make.
    var isEmpty: Bool { machine.isEmpty }

    /// Holds `item` for `delay` on the engine's clock.
    func hold(_ item: Held, for delay: Duration) {
        nextKey += 1
        held[nextKey] = item
        timers.add(nextKey, timeout: delay)
    }

    /// Takes out every item `quirk` holds (every item when nil: all were cleared), in the order held.
    func take(_ quirk: Quirk?) -> [Held] {
        let taken = held.filter { quirk == nil || $0.value.quirk == quirk }.sorted { $0.key < $1.key }
        for (key, _) in taken { held[key] = nil }
        return taken.map(\.value)
    }

    /// The userInfo transfers the app may be given now: those before the first one held back, so a
    /// later transfer never overtakes a delayed one.
    func visible(_ transfers: [InboxTransfer]) -> [InboxTransfer] {
        guard let first = heldUserInfo.min() else { return transfers }
        return Array(transfers.prefix { $0.deliveryId < first })
    }
}
