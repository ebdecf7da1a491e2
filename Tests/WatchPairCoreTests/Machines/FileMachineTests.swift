import Foundation
import Testing
@testable import WatchPairCore
import WatchPairWire

/// The file channel's machines as tables, one event per line: offer, resume, window, order, end, cancel.
@Suite("machine: files")
struct FileMachineTests {
    typealias S = FileSender
    typealias R = FileReceiver

    static func chunks(_ ranges: (UInt64, Int)...) -> [FileChunkRange] {
        ranges.map { FileChunkRange(offset: $0.0, count: $0.1) }
    }

    @Test("a new file is offered, sent from 0 within the window, and finished by the receiver's fileEnd")
    func senderFromZero() {
        var sender = S(chunkSize: 4, window: 8)
        let steps: [(S.Event, S.Action)] = [
            (.linked, .offerNext),
            (.next(seq: 3, size: 10), .offer(seq: 3)),
            (.acked(seq: 3, offset: 0), .sendChunks(seq: 3, Self.chunks((0, 4), (4, 4)))),  // the window: 8 bytes
            (.acked(seq: 3, offset: 4), .sendChunks(seq: 3, Self.chunks((8, 2)))),  // the last, short chunk
            (.acked(seq: 3, offset: 10), .none),
            (.ended(seq: 3, status: .received), .finish(seq: 3, .received)),
            (.nothingOutstanding, .none),
        ]
        for (index, (event, expected)) in steps.enumerated() {
            #expect(sender.event(event) == expected, "step \(index)")
        }
        #expect(sender.current == nil)
    }

    @Test("after a reconnect the file is offered again and resumed from the receiver's durable offset, not restarted")
    func senderResumes() {
        var sender = S(chunkSize: 4, window: 8)
        _ = sender.event(.linked)
        _ = sender.event(.next(seq: 1, size: 100))
        #expect(sender.event(.acked(seq: 1, offset: 0)) == .sendChunks(seq: 1, Self.chunks((0, 4), (4, 4))))
        // The link drops; the receiver had made 4 bytes durable.
        #expect(sender.event(.linked) == .offerNext)
        #expect(sender.event(.next(seq: 1, size: 100)) == .offer(seq: 1))
        #expect(sender.event(.acked(seq: 1, offset: 96)) == .sendChunks(seq: 1, Self.chunks((96, 4))))
        // A receiver that already holds everything: nothing to send, wait for its fileEnd.
        _ = sender.event(.linked)
        _ = sender.event(.next(seq: 1, size: 100))
        #expect(sender.event(.acked(seq: 1, offset: 100)) == .none)
        #expect(sender.event(.ended(seq: 1, status: .corrupt)) == .finish(seq: 1, .corrupt))
    }

    @Test("frames about another file, or claiming bytes never sent, are violations", arguments: [
        (S.Event.acked(seq: 2, offset: 0), "a fileAck for file 2, which is not the file in flight"),
        (.acked(seq: 1, offset: 9), "the peer acknowledges 9 bytes of file 1, but 8 were sent"),
        (.ended(seq: 2, status: .received), "a fileEnd for file 2, which is not the file in flight"),
        (.ended(seq: 1, status: .cancelled), "the receiver sent fileEnd(cancelled), which only a sender sends"),
    ])
    func senderViolations(event: S.Event, reason: String) {
        var sender = S(chunkSize: 4, window: 8)
        _ = sender.event(.linked)
        _ = sender.event(.next(seq: 1, size: 100))
        _ = sender.event(.acked(seq: 1, offset: 0))
        #expect(sender.event(event) == .reject(reason))
    }

    @Test("an offer answered with more than the file holds is a violation")
    func senderOverlongResume() {
        var sender = S(chunkSize: 4, window: 8)
        _ = sender.event(.linked)
        _ = sender.event(.next(seq: 1, size: 10))
        #expect(sender.event(.acked(seq: 1, offset: 11)) == .reject("the peer holds 11 bytes of file 1, which has 10"))
    }

    @Test("cancelling the file in flight tells the receiver; answers crossing the cancel are ignored; another file needs no word")
    func senderCancel() {
        var sender = S(chunkSize: 4, window: 8)
        _ = sender.event(.linked)
        _ = sender.event(.next(seq: 5, size: 10))
        #expect(sender.event(.cancelled(seq: 6)) == .none)
        #expect(sender.event(.cancelled(seq: 5)) == .tellCancelled(seq: 5))
        #expect(sender.current == nil)
        #expect(sender.event(.acked(seq: 5, offset: 0)) == .none)
        #expect(sender.event(.ended(seq: 5, status: .received)) == .none)
        #expect(sender.event(.acked(seq: 6, offset: 0)) == .reject("a fileAck for file 6, which is not the file in flight"))
        // A new link starts with nothing retired.
        _ = sender.event(.linked)
        #expect(sender.event(.acked(seq: 5, offset: 0)) == .reject("a fileAck for file 5, which is not the file in flight"))
    }

    @Test("the receiver opens, resumes at the durable offset, writes each chunk, syncs every syncBytes one sync at a time, verifies the whole file with its last sync")
    func receiverFlow() {
        var receiver = R(syncBytes: 8)
        let steps: [(R.Event, R.Action)] = [
            (.linked, .none),
            (.offered(seq: 2, after: 1, size: 28), .open(seq: 2)),
            (.opened(seq: 2, .open(durable: 4)), .ack(seq: 2, offset: 4)),  // resumed
            (.chunk(seq: 2, offset: 4, count: 4), .write),
            (.chunk(seq: 2, offset: 8, count: 4), .writeAndSync(seq: 2)),  // 8 written beyond the durable offset
            (.chunk(seq: 2, offset: 12, count: 4), .write),  // the link goes on during the sync
            (.written(seq: 2, durable: 12, outcome: nil), .ack(seq: 2, offset: 12)),
            (.chunk(seq: 2, offset: 16, count: 4), .writeAndSync(seq: 2)),
            (.chunk(seq: 2, offset: 20, count: 4), .write),
            (.chunk(seq: 2, offset: 24, count: 4), .write),  // the end, during a sync: the next sync takes it
            (.written(seq: 2, durable: 20, outcome: nil), .ackAndSync(seq: 2, offset: 20)),
            (.written(seq: 2, durable: 28, outcome: .received), .ackAndEnd(seq: 2, offset: 28, .received)),
            // Offered again (the sender missed the fileEnd): the store says passed; answered, not delivered.
            (.offered(seq: 2, after: 1, size: 28), .open(seq: 2)),
            (.opened(seq: 2, .passed(.received)), .end(seq: 2, .received)),
            // A file whole before this link (a store of an older version): verified at once.
            (.offered(seq: 3, after: 2, size: 5), .open(seq: 3)),
            (.opened(seq: 3, .open(durable: 5)), .ackAndComplete(seq: 3, offset: 5)),
            (.completed(seq: 3, .corrupt), .end(seq: 3, .corrupt)),
            // A small file: its one chunk makes the one sync, which ends it.
            (.offered(seq: 4, after: 3, size: 3), .open(seq: 4)),
            (.opened(seq: 4, .open(durable: 0)), .ack(seq: 4, offset: 0)),
            (.chunk(seq: 4, offset: 0, count: 3), .writeAndSync(seq: 4)),
            (.written(seq: 4, durable: 3, outcome: .corrupt), .ackAndEnd(seq: 4, offset: 3, .corrupt)),
        ]
        for (index, (event, expected)) in steps.enumerated() {
            #expect(receiver.event(event) == expected, "step \(index)")
        }
        #expect(receiver.current == nil)
    }

    @Test("chunks out of place and offers out of turn are violations", arguments: [
        (R.Event.chunk(seq: 1, offset: 4, count: 4), "a chunk of file 1 at 4, expected 0"),
        (.chunk(seq: 1, offset: 0, count: 11), "a chunk of file 1 past its size 10"),
        (.chunk(seq: 9, offset: 0, count: 1), "a chunk of file 9, which is not open"),
        (.offered(seq: 2, after: 1, size: 5), "an offer of file 2 while file 1 is in flight"),
        (.ended(seq: 1, status: .received), "the sender sent fileEnd(received), which only a receiver sends"),
    ])
    func receiverViolations(event: R.Event, reason: String) {
        var receiver = R(syncBytes: 8)
        _ = receiver.event(.offered(seq: 1, after: 0, size: 10))
        _ = receiver.event(.opened(seq: 1, .open(durable: 0)))
        #expect(receiver.event(event) == .reject(reason))
    }

    @Test("no chunk before the offer is answered; an offer must come after its predecessor")
    func receiverOrder() {
        var receiver = R(syncBytes: 8)
        #expect(receiver.event(.offered(seq: 1, after: 1, size: 10)) == .reject("an offer of file 1 after 1"))
        #expect(receiver.event(.offered(seq: 1, after: 0, size: 10)) == .open(seq: 1))
        #expect(receiver.event(.chunk(seq: 1, offset: 0, count: 1)) == .reject("a chunk of file 1, which is not open"))
    }

    @Test("the sender's cancel drops the file in flight; a new link forgets it")
    func receiverCancel() {
        var receiver = R(syncBytes: 8)
        _ = receiver.event(.offered(seq: 1, after: 0, size: 10))
        _ = receiver.event(.opened(seq: 1, .open(durable: 0)))
        #expect(receiver.event(.chunk(seq: 1, offset: 0, count: 2)) == .write)
        #expect(receiver.event(.ended(seq: 1, status: .cancelled)) == .cancel(seq: 1))
        #expect(receiver.current == nil)
        // A cancel of a file never offered on this link still reaches the store (it passes the seq).
        #expect(receiver.event(.ended(seq: 4, status: .cancelled)) == .cancel(seq: 4))
        _ = receiver.event(.offered(seq: 5, after: 4, size: 10))
        #expect(receiver.event(.linked) == .none)
        #expect(receiver.current == nil)
    }
}
