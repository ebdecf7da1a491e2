import Foundation
import Synchronization
import WatchPairWire

/// One `transferUserInfo` transfer: its payload, whether it is still on its way, and a way to cancel it.
///
/// Returned by `WCSession.transferUserInfo(_:)` once the transfer is durable, listed by
/// `WCSession.outstandingUserInfoTransfers`, and passed to `session(_:didFinish:error:)`. Within one
/// process the same transfer is the same object in all three places while the app holds a reference
/// to it. `isTransferring` is true until the transfer finishes, fails or is cancelled.
public final class WCSessionUserInfoTransfer: NSObject, @unchecked Sendable {
    /// The transfer's identity in the engine's store (nil for a transfer refused before it was stored).
    let transferId: UUID?
    /// The payload, as the engine stores it, or as the app gave it when it was refused (not a property list).
    let payload: Payload
    /// Cancels the transfer in the engine; nil when there is nothing to cancel.
    private let canceller: (@Sendable (UUID) -> Void)?
    private let transferring: Mutex<Bool>

    /// A transfer's dictionary.
    enum Payload {
        /// Accepted (or at least convertible): the engine's values.
        case plist(PlistDictionary)
        /// Refused because it is not a property list: the app's own dictionary, returned unchanged.
        case refused([String: Any])
    }

    init(
        transferId: UUID?, payload: Payload, isTransferring: Bool, isCurrentComplicationInfo: Bool = false,
        canceller: (@Sendable (UUID) -> Void)?
    ) {
        self.transferId = transferId
        self.payload = payload
        self.isCurrentComplicationInfo = isCurrentComplicationInfo
        self.canceller = canceller
        self.transferring = Mutex(isTransferring)
    }

    /// True when the transfer goes as the current complication info: sent with
    /// `transferCurrentComplicationUserInfo` within the day's budget. False for `transferUserInfo`, and for
    /// a complication transfer sent with the budget at 0 (it went as a plain userInfo).
    public let isCurrentComplicationInfo: Bool

    /// The dictionary being transferred.
    public var userInfo: [String: Any] {
        switch payload {
        case .plist(let dictionary): PropertyListBridge.object(from: dictionary)
        case .refused(let dictionary): dictionary
        }
    }

    /// True while the transfer is outstanding: accepted and not yet finished, failed or cancelled.
    public var isTransferring: Bool { transferring.withLock { $0 } }

    /// Cancels the transfer if it is still outstanding; returns once the engine has removed it from the
    /// outbox (it then no longer appears in `outstandingUserInfoTransfers` and gets no `didFinish`).
    ///
    /// A transfer already written to the link may still reach the counterpart, as on Apple's devices.
    public func cancel() {
        guard transferring.withLock({ state in
            defer { state = false }
            return state
        }) else { return }
        if let transferId, let canceller { canceller(transferId) }
    }

    /// Marks the transfer as no longer outstanding.
    func markFinished() {
        transferring.withLock { $0 = false }
    }

    /// `<WCSessionUserInfoTransfer id transferring>`.
    public override var description: String {
        "<WCSessionUserInfoTransfer \(transferId?.uuidString ?? "refused") \(isTransferring ? "transferring" : "done")>"
    }
}
