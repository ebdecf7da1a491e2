import Foundation
import WatchPairWire

/// The sending side of the file channel on one link, as a pure state machine.
///
/// One file is in flight at a time, the oldest outstanding, so files arrive in order. On a new link the
/// file is offered; the receiver's `fileAck` to the offer is the offset it durably holds, and chunks go
/// from exactly there (resumed, not restarted). At most `window` bytes are sent beyond the receiver's
/// last acknowledged offset, so a slow receiver holds the sender, and a link drop costs at most that
/// window. The receiver's `fileEnd` ends the file; then the next is offered.
struct FileSender: Sendable, Hashable {
    /// The file in flight, as far as the machine needs it.
    struct Current: Sendable, Hashable {
        var seq: UInt64
        var size: UInt64
        /// The next byte to send.
        var next: UInt64
        /// The receiver's durable offset; nil until it answered the offer.
        var acked: UInt64?
    }

    enum Event: Sendable, Hashable {
        /// A new link is established: forget what was in flight on the last one.
        case linked
        /// The oldest outstanding file, read by the executor after `.offerNext`.
        case next(seq: UInt64, size: UInt64)
        /// No file is outstanding (the answer to `.offerNext` when the queue is empty).
        case nothingOutstanding
        /// The receiver's `fileAck`.
        case acked(seq: UInt64, offset: UInt64)
        /// The receiver's `fileEnd`.
        case ended(seq: UInt64, status: FileEndStatus)
        /// The app cancelled file `seq` (the store has deleted it).
        case cancelled(seq: UInt64)
    }

    enum Action: Sendable, Hashable {
        /// Read the oldest outstanding file and report it with `.next`.
        case offerNext
        /// Send `fileOffer` for file `seq` (with `after: seq - 1`: every file below it has ended here).
        case offer(seq: UInt64)
        /// Read and send these chunks of file `seq`, in order.
        case sendChunks(seq: UInt64, [FileChunkRange])
        /// Record the outcome (store, didFinish), then offer the next file.
        case finish(seq: UInt64, FileOutcome)
        /// Tell the receiver with `fileEnd(seq, cancelled)`, then offer the next file.
        case tellCancelled(seq: UInt64)
        /// Nothing to do now.
        case none
        /// A protocol violation: close the link.
        case reject(String)
    }

    /// Bytes per chunk frame.
    let chunkSize: Int
    /// The most bytes sent beyond the receiver's acknowledged offset.
    let window: UInt64
    /// The file in flight on this link.
    private(set) var current: Current?
    /// The highest seq ended or cancelled on this link: the receiver's answers about it may still be on
    /// their way (a cancel crosses its acknowledgements), so they are ignored, not violations.
    private(set) var retired: UInt64 = 0

    init(chunkSize: Int, window: UInt64) {
        precondition(chunkSize > 0 && window >= UInt64(chunkSize), "the window holds at least one chunk")
        self.chunkSize = chunkSize
        self.window = window
    }

    mutating func event(_ event: Event) -> Action {
        switch event {
        case .linked:
            current = nil
            retired = 0
            return .offerNext
        case .nothingOutstanding:
            current = nil
            return .none
        case .next(let seq, let size):
            current = Current(seq: seq, size: size, next: 0, acked: nil)
            return .offer(seq: seq)
        case .acked(let seq, let offset):
            if seq <= retired, current?.seq != seq { return .none }
            guard var file = current, file.seq == seq else {
                return .reject("a fileAck for file \(seq), which is not the file in flight")
            }
            if file.acked == nil {
                // The answer to the offer: resume from what the receiver holds.
                guard offset <= file.size else {
                    return .reject("the peer holds \(offset) bytes of file \(seq), which has \(file.size)")
                }
                file.next = offset
            } else {
                guard offset <= file.next else {
                    return .reject("the peer acknowledges \(offset) bytes of file \(seq), but \(file.next) were sent")
                }
            }
            file.acked = max(file.acked ?? 0, offset)
            current = file
            return pump()
        case .ended(let seq, let status):
            if seq <= retired, current?.seq != seq { return .none }
            guard let file = current, file.seq == seq else {
                return .reject("a fileEnd for file \(seq), which is not the file in flight")
            }
            current = nil
            retired = max(retired, seq)
            switch status {
            case .received: return .finish(seq: file.seq, .received)
            case .corrupt: return .finish(seq: file.seq, .corrupt)
            case .cancelled: return .reject("the receiver sent fileEnd(cancelled), which only a sender sends")
            }
        case .cancelled(let seq):
            guard current?.seq == seq else { return .none }  // not offered on this link: nothing to tell
            current = nil
            retired = max(retired, seq)
            return .tellCancelled(seq: seq)
        }
    }

    /// The chunks that fit in the window now, advancing `next` past them.
    private mutating func pump() -> Action {
        guard var file = current, let acked = file.acked else { return .none }
        var chunks: [FileChunkRange] = []
        while file.next < file.size, file.next - acked < window {
            let room = min(window - (file.next - acked), file.size - file.next)
            let count = Int(min(UInt64(chunkSize), room))
            chunks.append(FileChunkRange(offset: file.next, count: count))
            file.next += UInt64(count)
        }
        current = file
        return chunks.isEmpty ? .none : .sendChunks(seq: file.seq, chunks)
    }
}

/// One chunk to send: `count` bytes from `offset`.
struct FileChunkRange: Sendable, Hashable {
    var offset: UInt64
    var count: Int
}
