import Foundation
import WatchPairWire

/// The receiving side of the file channel on one link, as a pure state machine.
///
/// An offer is looked up in the store (`.open`), which answers where to resume or that the file is
/// already passed. Chunks must continue exactly at the next expected byte; each is written as it arrives
/// (`.write`), and once `syncBytes` are written beyond the durable offset, or the file is whole, what is
/// written is made durable (`.writeAndSync`) while later chunks keep arriving: one sync at a time, each
/// acknowledged when it is durable. The sync that makes the file whole also verifies it (the store does
/// both in one commit) and the file is ended with `fileEnd`.
struct FileReceiver: Sendable, Hashable {
    /// The file being received, as far as the machine needs it.
    struct Current: Sendable, Hashable {
        var seq: UInt64
        var size: UInt64
        /// The next byte expected from the link.
        var next: UInt64
        /// The bytes durably written; `next - durable` are written or being written, not yet durable.
        var durable: UInt64
        /// A sync is in flight (at most one).
        var syncing: Bool = false
        /// The store is opening it (no chunk may come before the answer to the offer).
        var opening: Bool
    }

    enum Event: Sendable, Hashable {
        /// A new link: whatever was pending on the last one is gone with it.
        case linked
        /// A `fileOffer` frame.
        case offered(seq: UInt64, after: UInt64, size: UInt64)
        /// The store's answer to `.open`: passed already, or open at `durable`.
        case opened(seq: UInt64, IncomingFileSummary)
        /// A `fileChunk` frame of `count` bytes.
        case chunk(seq: UInt64, offset: UInt64, count: Int)
        /// A sync made the written bytes durable up to `durable`; `outcome` when that was the whole file
        /// (verified in the same commit).
        case written(seq: UInt64, durable: UInt64, outcome: FileOutcome?)
        /// The store verified the whole file.
        case completed(seq: UInt64, FileOutcome)
        /// The sender's `fileEnd`.
        case ended(seq: UInt64, status: FileEndStatus)
    }

    enum Action: Sendable, Hashable {
        /// Look the offer up in the store (`openIncomingFile`) and report with `.opened`.
        case open(seq: UInt64)
        /// Answer with `fileAck(seq, offset)`.
        case ack(seq: UInt64, offset: UInt64)
        /// Answer with `fileEnd(seq, status)`.
        case end(seq: UInt64, FileEndStatus)
        /// Write the chunk's bytes after the others (durable at a later sync).
        case write
        /// Write the chunk's bytes, then make every written byte durable and record it (verifying the file
        /// when whole), and report `.written`; the link goes on meanwhile.
        case writeAndSync(seq: UInt64)
        /// Answer with `fileAck(seq, offset)`, then sync again: bytes enough for a sync were written
        /// during the last one.
        case ackAndSync(seq: UInt64, offset: UInt64)
        /// Answer with `fileAck(seq, offset)`, then `fileEnd(seq, status)`: the last sync completed the file.
        case ackAndEnd(seq: UInt64, offset: UInt64, FileEndStatus)
        /// Acknowledge `offset`, then verify the whole file (`completeIncoming`) and report `.completed`.
        case ackAndComplete(seq: UInt64, offset: UInt64)
        /// Verify the whole file and report `.completed` (it was whole before this link).
        case complete(seq: UInt64)
        /// Drop what is held of file `seq` (`cancelIncoming`).
        case cancel(seq: UInt64)
        case none
        /// A protocol violation: close the link (the sender resumes from the durable offset).
        case reject(String)
    }

    /// Written bytes that make a sync: fewer, larger syncs than one per chunk.
    let syncBytes: UInt64
    private(set) var current: Current?

    init(syncBytes: UInt64) {
        self.syncBytes = max(syncBytes, 1)
    }

    mutating func event(_ event: Event) -> Action {
        switch event {
        case .linked:
            current = nil
            return .none
        case .offered(let seq, let after, let size):
            guard current == nil else {
                return .reject("an offer of file \(seq) while file \(current!.seq) is in flight")
            }
            guard after < seq else { return .reject("an offer of file \(seq) after \(after)") }
            current = Current(seq: seq, size: size, next: 0, durable: 0, opening: true)
            return .open(seq: seq)
        case .opened(let seq, let summary):
            guard var file = current, file.seq == seq, file.opening else { return .none }
            switch summary {
            case .passed(let outcome):
                current = nil
                return .end(seq: seq, outcome.status)
            case .open(let durable):
                file.opening = false
                file.next = durable
                file.durable = durable
                current = file
                return durable == file.size ? .ackAndComplete(seq: seq, offset: durable) : .ack(seq: seq, offset: durable)
            }
        case .chunk(let seq, let offset, let count):
            guard var file = current, file.seq == seq, !file.opening else {
                return .reject("a chunk of file \(seq), which is not open")
            }
            guard offset == file.next else {
                return .reject("a chunk of file \(seq) at \(offset), expected \(file.next)")
            }
            guard UInt64(count) <= file.size - file.next else {
                return .reject("a chunk of file \(seq) past its size \(file.size)")
            }
            file.next += UInt64(count)
            let sync = !file.syncing && wantsSync(file)
            file.syncing = file.syncing || sync
            current = file
            return sync ? .writeAndSync(seq: seq) : .write
        case .written(let seq, let durable, let outcome):
            guard var file = current, file.seq == seq else { return .none }
            if let outcome {
                current = nil
                return .ackAndEnd(seq: seq, offset: durable, outcome.status)
            }
            file.durable = durable
            file.syncing = durable < file.next && wantsSync(file)
            current = file
            return file.syncing ? .ackAndSync(seq: seq, offset: durable) : .ack(seq: seq, offset: durable)
        case .completed(let seq, let outcome):
            guard current?.seq == seq else { return .none }
            current = nil
            return .end(seq: seq, outcome.status)
        case .ended(let seq, let status):
            guard status == .cancelled else {
                return .reject("the sender sent fileEnd(\(status)), which only a receiver sends")
            }
            if current?.seq == seq { current = nil }
            return .cancel(seq: seq)
        }
    }

    /// Whether the bytes written beyond the durable offset make a sync: `syncBytes` of them, or the end.
    private func wantsSync(_ file: Current) -> Bool {
        file.next == file.size || file.next - file.durable >= syncBytes
    }
}

/// The store's answer to an offer, as the receiver machine needs it.
enum IncomingFileSummary: Sendable, Hashable {
    /// Already passed with this outcome: answer it again.
    case passed(FileOutcome)
    /// Open, holding `durable` bytes.
    case open(durable: UInt64)
}
