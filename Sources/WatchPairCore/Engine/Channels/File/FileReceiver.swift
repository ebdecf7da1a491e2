import Foundation
import WatchPairWire

/// The receiving side of the file channel on one link, as a pure state machine.
///
/// An offer is looked up in the store (`.open`), which answers where to resume or that the file is
/// already passed. Chunks must continue exactly at the next expected byte; they are gathered and made
/// durable together once `syncBytes` are pending or the file is whole (`.flush`), each durable write is
/// acknowledged, and a whole file is verified (`.complete`) and ended with `fileEnd`.
struct FileReceiver: Sendable, Hashable {
    /// The file being received, as far as the machine needs it.
    struct Current: Sendable, Hashable {
        var seq: UInt64
        var size: UInt64
        /// The next byte expected from the link.
        var next: UInt64
        /// The bytes durably written; `next - durable` are pending in the executor.
        var durable: UInt64
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
        /// The store made the pending bytes durable, up to `durable`.
        case written(seq: UInt64, durable: UInt64)
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
        /// Keep the chunk's bytes pending.
        case hold
        /// Keep the chunk's bytes pending, then write every pending byte durably and report `.written`.
        case flush(seq: UInt64)
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

    /// Pending bytes that make a durable write: fewer, larger syncs than one per chunk.
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
            current = file
            return file.next == file.size || file.next - file.durable >= syncBytes ? .flush(seq: seq) : .hold
        case .written(let seq, let durable):
            guard var file = current, file.seq == seq else { return .none }
            file.durable = durable
            current = file
            return durable == file.size ? .ackAndComplete(seq: seq, offset: durable) : .ack(seq: seq, offset: durable)
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
}

/// The store's answer to an offer, as the receiver machine needs it.
enum IncomingFileSummary: Sendable, Hashable {
    /// Already passed with this outcome: answer it again.
    case passed(FileOutcome)
    /// Open, holding `durable` bytes.
    case open(durable: UInt64)
}
