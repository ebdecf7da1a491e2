import Foundation
import Synchronization

/// One `transferFile` transfer: its file, how far it has got, whether it is still on its way, and a way
/// to cancel it.
///
/// Returned by `WCSession.transferFile(_:metadata:)` once the session holds its own durable copy of the
/// file (the app may delete its file then), listed by `WCSession.outstandingFileTransfers`, and passed to
/// `session(_:didFinish:error:)`. Within one process the same transfer is the same object in all three
/// places while the app holds a reference to it.
public final class WCSessionFileTransfer: NSObject, @unchecked Sendable {
    /// The transfer's identity in the engine's store (nil for a transfer refused before it was stored).
    let transferId: UUID?
    /// The file being transferred and its metadata.
    public let file: WCSessionFile
    /// How far the transfer has got: `totalUnitCount` is the file's size in bytes, `completedUnitCount`
    /// the bytes the counterpart holds durably (acknowledged, not merely sent). Updated as the counterpart
    /// acknowledges; complete when the transfer finished. Never goes back, also across link drops.
    public let progress: Progress
    /// Cancels the transfer in the engine; nil when there is nothing to cancel.
    private let canceller: (@Sendable (UUID) -> Void)?
    private let transferring: Mutex<Bool>

    init(transferId: UUID?, file: WCSessionFile, size: UInt64, isTransferring: Bool, canceller: (@Sendable (UUID) -> Void)?) {
        self.transferId = transferId
        self.file = file
        self.progress = Progress(totalUnitCount: Int64(clamping: size))
        self.canceller = canceller
        self.transferring = Mutex(isTransferring)
    }

    /// True while the transfer is outstanding: accepted and not yet finished, failed or cancelled.
    public var isTransferring: Bool { transferring.withLock { $0 } }

    /// Cancels the transfer if it is still outstanding; returns once the engine has removed it (it then no
    /// longer appears in `outstandingFileTransfers` and gets no `didFinish`). A file in flight is dropped
    /// at the counterpart too: no partial file is left there, and it is never delivered.
    public func cancel() {
        guard transferring.withLock({ state in
            defer { state = false }
            return state
        }) else { return }
        if let transferId, let canceller { canceller(transferId) }
    }

    /// Records `bytes` acknowledged by the counterpart; a smaller value than the last is ignored.
    func acknowledged(_ bytes: UInt64) {
        let count = Int64(clamping: bytes)
        if count > progress.completedUnitCount { progress.completedUnitCount = min(count, progress.totalUnitCount) }
    }

    /// Marks the transfer as no longer outstanding; `completed`: every byte arrived.
    func markFinished(completed: Bool) {
        transferring.withLock { $0 = false }
        if completed { progress.completedUnitCount = progress.totalUnitCount }
    }

    /// `<WCSessionFileTransfer id name transferring>`.
    public override var description: String {
        "<WCSessionFileTransfer \(transferId?.uuidString ?? "refused") \(file.fileURL.lastPathComponent) \(isTransferring ? "transferring" : "done")>"
    }
}
