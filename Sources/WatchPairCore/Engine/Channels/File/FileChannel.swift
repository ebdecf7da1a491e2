import Foundation
import WatchPairWire

/// The file channel's executor: it owns the machines (``FileSender``, ``FileReceiver``), pumps the oldest
/// outstanding file onto the current link in chunks, and makes received chunks durable.
///
/// Owned by one ``PairEngine`` and touched only on its actor. The reader never writes to the socket
/// (two full send buffers would stop both links): what the receiver answers (`fileAck`, `fileEnd`) is
/// posted as control frames, and what the sender's machine decides on a received frame (more chunks, a
/// cancel to tell) is queued here and written by the pump.
///
/// The receiver writes each chunk as it arrives (``FileSpoolWriter``, in order on its own queue) and makes
/// the written bytes durable every `fileSyncBytes` in ``syncReceived(_:)``, beside the reader, so the link
/// keeps flowing during a sync; a chunk is acknowledged only once it is durable.
///
/// Bounds: one file in flight per side; at most `fileWindow` bytes (default 16 MiB) sent beyond the
/// receiver's durable offset, which also bounds the received bytes waiting to be written; chunks of
/// `fileChunkSize` bytes (default 64 KiB), each its own frame and write, so userInfo, context and message
/// frames interleave with them at chunk granularity, read from the spool at most `readBatchBytes` at a time.
final class FileChannel {
    var sender: FileSender
    var receiver: FileReceiver
    /// When an acknowledgement makes a `fileProgress` event.
    private var progressEvents = FileProgressThrottle()
    /// Frames the sender's machine decided on a received frame, for the pump to write.
    private var queued: [Frame] = []
    /// Chunks the sender's machine released, for the pump to read and write.
    private var chunks: [(seq: UInt64, range: FileChunkRange)] = []
    /// The outgoing file in flight (read from the store when offered).
    private var sending: OutgoingFile?
    /// Whether the pump must read the oldest outstanding file and offer it.
    private var wantsOffer = false
    /// A file's end is being recorded: until it is, the store still lists that file as the oldest
    /// outstanding, so nothing is offered.
    private var finishing = false
    /// Bumped by every cancel: a read of the queue begun before one may return the cancelled file.
    private var cancels = 0
    /// The link the receiver's state belongs to: a frame from another link starts it afresh, so a second
    /// link that is set up (and settled) while a file arrives on the first cannot disturb it.
    private weak var receiverLink: Link?
    /// The incoming file being received, as far as it is durable, and the writer of its bytes.
    private var receiving: IncomingFile?
    private var writer: FileSpoolWriter?
    /// The queue of every writer of this channel: a writer opened on a new link cuts its file only after
    /// the last link's writes.
    private let writerQueue = DispatchQueue(label: "watchpair.file-writer")
    /// A sync the receiver's machine asked for, for ``syncReceived(_:)``; and whether one is running.
    private var syncRequest: (seq: UInt64, link: Link)?
    private var syncRunning = false
    private let syncSignal = AsyncSignal()
    /// The most bytes of released chunks read from the spool at once.
    static let readBatchBytes = 1 << 20

    init(configuration: EngineConfiguration) {
        sender = FileSender(chunkSize: configuration.fileChunkSize, window: configuration.fileWindow)
        receiver = FileReceiver(syncBytes: configuration.fileSyncBytes)
    }

    // MARK: Sender

    /// Runs the sender's pump (``send(_:)``) and the receiver's syncs (``syncReceived(_:)``) side by side,
    /// until cancelled.
    func pump(_ engine: isolated PairEngine) async {
        await withDiscardingTaskGroup { group in
            group.addTask { await engine.sendFiles() }
            group.addTask { await engine.syncReceivedFiles() }
        }
    }

    /// Offers the oldest outstanding file on the current link and sends its chunks as the receiver's
    /// acknowledgements open the window. On a new link the file is offered again, and the receiver's answer
    /// says where to resume. Runs until cancelled.
    func send(_ engine: isolated PairEngine) async {
        var link: Link?
        while !Task.isCancelled {
            let seen = engine.contentSignal.generation
            guard let target = engine.current, target.isOpen else {
                await engine.contentSignal.wait(after: seen)
                continue
            }
            if target !== link {
                link = target
                queued = []
                chunks = []
                apply(sender.event(.linked), engine)
            }
            // New content while nothing is in flight: look again.
            if sender.current == nil, engine.store.files.outstandingFileCount > 0 { wantsOffer = true }
            if wantsOffer, !finishing, sender.current == nil {
                wantsOffer = false
                await offerNext(engine)
            }
            guard await writeQueued(on: target, engine) else { continue }
            if queued.isEmpty, chunks.isEmpty { await engine.contentSignal.wait(after: seen) }
        }
    }

    /// Reads the oldest outstanding file and hands it to the machine.
    private func offerNext(_ engine: isolated PairEngine) async {
        let oldest: OutgoingFile?
        let cancelsBefore = cancels
        do {
            oldest = try await engine.store.files.outstandingFiles(limit: 1).first
        } catch {
            engine.logger.error("reading the file queue failed", metadata: ["error": "\(error)"])
            return
        }
        // Re-checked after the read: a file ending meanwhile makes this answer stale; look again.
        guard !finishing, sender.current == nil, cancels == cancelsBefore else {
            wantsOffer = true
            return
        }
        sending = oldest
        if let file = sending {
            apply(sender.event(.next(seq: file.seq, size: file.size)), engine)
        } else {
            apply(sender.event(.nothingOutstanding), engine)
        }
    }

    /// Writes queued frames, then released chunks one frame at a time. False when the link changed or a
    /// write failed (the loop then starts again from the current link).
    private func writeQueued(on link: Link, _ engine: isolated PairEngine) async -> Bool {
        while engine.current === link, !queued.isEmpty {
            let frame = queued.removeFirst()
            guard (try? await link.send(frame)) != nil else { return false }
        }
        while engine.current === link, let first = chunks.first {
            guard let file = sending, file.seq == first.seq else {
                chunks.removeFirst()
                continue
            }
            let batch = takeBatch(of: file.seq)
            let read: [Data]
            do {
                read = try await engine.store.files.readChunks(of: file, batch)
            } catch {
                engine.logger.error("reading a queued file failed", metadata: ["error": "\(error)"])
                await link.close(.endOfStream)
                return false
            }
            for (range, bytes) in zip(batch, read) {
                // Re-checked after every wait: a cancel or a new link meanwhile makes this chunk stale.
                guard engine.current === link, sending?.seq == file.seq else { return false }
                guard (try? await link.send(.fileChunk(seq: file.seq, offset: range.offset, bytes: bytes))) != nil else { return false }
                engine.driver.madeProgress()
            }
        }
        return engine.current === link
    }

    /// Takes the released chunks of file `seq` at the head of the queue, up to `readBatchBytes` (at least
    /// one), to be read from the spool in one hop off the loop.
    private func takeBatch(of seq: UInt64) -> [FileChunkRange] {
        var batch: [FileChunkRange] = [], bytes = 0
        for next in chunks {
            guard next.seq == seq, batch.isEmpty || bytes + next.range.count <= Self.readBatchBytes else { break }
            bytes += next.range.count
            batch.append(next.range)
        }
        chunks.removeFirst(batch.count)
        return batch
    }

    /// Whether a file from the peer is partly held and its link is open (a daemon does not idle-exit then).
    var isReceiving: Bool {
        receiving != nil && receiverLink?.isOpen == true
    }

    /// The file in flight and what the receiver acknowledged of it; nil before the receiver answered the
    /// offer on this link.
    var progress: FileTransferProgress? {
        guard let file = sending, let current = sender.current, current.seq == file.seq, let acked = current.acked else {
            return nil
        }
        return FileTransferProgress(transferId: file.transferId, seq: file.seq, acknowledged: acked, size: file.size)
    }

    /// Carries out a sender action that needs no store work; the rest is handled by the callers.
    private func apply(_ action: FileSender.Action, _ engine: isolated PairEngine) {
        switch action {
        case .offerNext:
            wantsOffer = true
        case .offer(let seq):
            if let file = sending, file.seq == seq { queued.append(.fileOffer(file.offer(after: seq - 1))) }
        case .sendChunks(let seq, let ranges):
            chunks.append(contentsOf: ranges.map { (seq, $0) })
        case .tellCancelled(let seq):
            queued.append(.fileEnd(seq: seq, status: .cancelled))
            sending = nil
            chunks = []
            wantsOffer = true
        case .finish, .none, .reject:
            break
        }
    }

    /// A `fileAck` from the receiver.
    func acknowledged(seq: UInt64, offset: UInt64, on link: Link, _ engine: isolated PairEngine) async -> Bool {
        // The sender's machine follows the current link; a link being replaced may still deliver answers.
        guard link === engine.current else { return true }
        let action = sender.event(.acked(seq: seq, offset: offset))
        if case .reject(let reason) = action {
            await LinkSession(link).reject(reason, code: .invalidParameter, engine)
            return false
        }
        apply(action, engine)
        if let progress, progress.seq == seq, let file = sending,
            progressEvents.shouldReport(seq: seq, acknowledged: progress.acknowledged, size: progress.size)
        {
            let percent = Int(progress.fraction * 100)
            emit(.fileProgress, "file \(file.fileName) at \(percent)% (\(progress.acknowledged) of \(file.size) bytes acknowledged)",
                 file.described, offset: progress.acknowledged, engine)
        }
        engine.contentSignal.fire()
        return true
    }

    /// A `fileEnd` from the peer: the receiver ending this side's file, or the sender cancelling its own.
    func ended(seq: UInt64, status: FileEndStatus, on link: Link, _ engine: isolated PairEngine) async -> Bool {
        if status == .cancelled {
            follow(link)
            return await perform(receiver.event(.ended(seq: seq, status: status)), on: link, engine)
        }
        // From a link being replaced: the current link offers the file again and learns how it ended.
        guard link === engine.current else { return true }
        switch sender.event(.ended(seq: seq, status: status)) {
        case .reject(let reason):
            await LinkSession(link).reject(reason, code: .invalidParameter, engine)
            return false
        case .finish(let seq, let outcome):
            let ended = sending
            sending = nil
            chunks = []
            wantsOffer = true
            finishing = true
            defer {
                finishing = false
                engine.contentSignal.fire()
            }
            do {
                _ = try await engine.store.files.finishFile(seq: seq, outcome: outcome)
            } catch {
                engine.logger.error("recording a finished file failed", metadata: ["error": "\(error)"])
                await link.close(.endOfStream)
                return false
            }
            if let file = ended, file.seq == seq { reportEnd(of: file, outcome, engine) }
            engine.driver.madeProgress()
            engine.contentPendingMayHaveChanged()
            engine.appChanges.fire(.finishedFiles)
            engine.contentSignal.fire()
            return true
        default:
            return true
        }
    }

    /// Emits how the receiver ended this side's file: `fileFinished`, or `fileFailed` with 7014.
    private func reportEnd(of file: OutgoingFile, _ outcome: FileOutcome, _ engine: isolated PairEngine) {
        if outcome == .received {
            emit(.fileFinished, "file \(file.fileName) finished: the peer holds it, verified", file.described, offset: file.size, engine)
        } else {
            emit(.fileFailed, "file \(file.fileName) failed: the peer found it corrupt and dropped it", file.described, errorCode: .deliveryFailed, engine)
        }
    }

    /// The app cancelled outgoing file `file` (already deleted from the store).
    func cancelled(_ file: OutgoingFile, _ engine: isolated PairEngine) {
        cancels += 1
        apply(sender.event(.cancelled(seq: file.seq)), engine)
        engine.contentPendingMayHaveChanged()
        engine.contentSignal.fire()
    }

    // MARK: Receiver

    /// Starts the receiver afresh when `link` is not the one its state belongs to: what was written of an
    /// incoming file on the last link beyond its durable offset is dropped (the sender sends it again from
    /// the durable offset).
    private func follow(_ link: Link) {
        guard link !== receiverLink else { return }
        receiverLink = link
        _ = receiver.event(.linked)
        dropReceiving()
    }

    /// Forgets the incoming file: closes its writer (after the writes queued before) and drops a sync not
    /// begun.
    private func dropReceiving() {
        receiving = nil
        writer?.close()
        writer = nil
        syncRequest = nil
    }

    /// Waits until no sync is running: before the store opens or cancels an incoming file, so a sync of
    /// the last link records its bytes first and the row is read or deleted at rest. False when the task
    /// was cancelled first (the caller then leaves the store alone).
    private func syncIdle(_ engine: isolated PairEngine) async -> Bool {
        while syncRunning {
            guard !Task.isCancelled else { return false }
            await syncSignal.wait(after: syncSignal.generation)
        }
        return true
    }

    /// A `fileOffer` from the sender.
    func offered(_ offer: FileOffer, on link: Link, _ engine: isolated PairEngine) async -> Bool {
        follow(link)
        let action = receiver.event(.offered(seq: offer.seq, after: offer.after, size: offer.size))
        guard case .open = action else { return await perform(action, on: link, engine) }
        guard let peer = link.peerHello?.storeId, await syncIdle(engine) else { return false }
        let state: IncomingFileState
        do {
            state = try await engine.store.files.openIncomingFile(from: peer, offer: offer)
        } catch {
            return await refuse(error, on: link, engine)
        }
        switch state {
        case .passed(let outcome):
            return await perform(receiver.event(.opened(seq: offer.seq, .passed(outcome))), on: link, engine)
        case .open(let file):
            // Another link took the receiver meanwhile: its own offer opens the file there.
            guard link === receiverLink else { return true }
            dropReceiving()
            receiving = file
            writer = FileSpoolWriter(path: file.spoolPath, at: file.durableOffset, checksum: file.runningChecksum, queue: writerQueue)
            return await perform(receiver.event(.opened(seq: offer.seq, .open(durable: file.durableOffset))), on: link, engine)
        }
    }

    /// A `fileChunk` from the sender: written at once, durable at a later sync.
    func chunk(seq: UInt64, offset: UInt64, bytes: Data, on link: Link, _ engine: isolated PairEngine) async -> Bool {
        follow(link)
        let action = receiver.event(.chunk(seq: seq, offset: offset, count: bytes.count))
        switch action {
        case .write, .writeAndSync: writer?.append(bytes)
        default: break
        }
        return await perform(action, on: link, engine)
    }

    /// Makes written bytes durable when the receiver's machine asks (``FileReceiver/Action/writeAndSync(seq:)``),
    /// beside the link's reader, one sync at a time. Runs until cancelled.
    func syncReceived(_ engine: isolated PairEngine) async {
        while !Task.isCancelled {
            let seen = syncSignal.generation
            guard let request = syncRequest else {
                await syncSignal.wait(after: seen)
                continue
            }
            syncRequest = nil
            syncRunning = true
            await sync(seq: request.seq, on: request.link, engine)
            syncRunning = false
            syncSignal.fire()
        }
    }

    /// One sync: fdatasync of what the writer wrote, then its offset and checksum recorded (the file verified
    /// and ended when whole), then the machine told.
    private func sync(seq: UInt64, on link: Link, _ engine: isolated PairEngine) async {
        guard let file = receiving, let writer, file.offer.seq == seq, link === receiverLink else { return }
        let recorded: (file: IncomingFile, outcome: FileOutcome?)
        do {
            let synced = try await writer.sync()
            recorded = try await engine.store.files.recordIncoming(file, durable: synced.offset, checksum: synced.checksum)
        } catch {
            // A writer dropped meanwhile (a new link, a cancel) fails its sync: nothing to tell.
            if self.writer === writer { _ = await refuse(error, on: link, engine) }
            return
        }
        engine.driver.madeProgress()
        // Re-checked after the waits: a new link or a cancel meanwhile owns the receiver now; what was
        // recorded stays true (those bytes are durable) and the sender learns it from the next offer.
        guard self.writer === writer, link === receiverLink else { return }
        receiving = recorded.file
        if let outcome = recorded.outcome { received(recorded.file, outcome, engine) }
        let action = receiver.event(.written(seq: seq, durable: recorded.file.durableOffset, outcome: recorded.outcome))
        _ = await perform(action, on: link, engine)
    }

    /// An incoming file ended, verified: received (waits for the app) or corrupt (dropped).
    private func received(_ file: IncomingFile, _ outcome: FileOutcome, _ engine: isolated PairEngine) {
        dropReceiving()
        if outcome == .received {
            emit(.fileReceived, "file \(file.offer.fileName) received (\(file.offer.size) bytes, checksum matched)", file.offer, offset: file.offer.size, engine)
            if !engine.quirks.isEmpty { engine.quirkOnReceivedFile(file.offer) }
            engine.appChanges.fire(.receivedFiles)
        } else {
            emit(.fileFailed, "file \(file.offer.fileName) arrived corrupt (checksum mismatch) and was dropped", file.offer, errorCode: .deliveryFailed, engine)
        }
    }

    /// Carries out one receiver action, feeding the machine the results of store work until it rests.
    private func perform(_ first: FileReceiver.Action, on link: Link, _ engine: isolated PairEngine) async -> Bool {
        var action = first
        while true {
            switch action {
            case .none, .write, .open:
                return true
            case .reject(let reason):
                await LinkSession(link).reject(reason, code: .deliveryFailed, engine)
                return false
            case .ack(let seq, let offset):
                link.post(.fileAck(seq: seq, offset: offset))
                return true
            case .end(let seq, let status):
                link.post(.fileEnd(seq: seq, status: status))
                return true
            case .writeAndSync(let seq):
                syncRequest = (seq, link)
                syncSignal.fire()
                return true
            case .ackAndSync(let seq, let offset):
                link.post(.fileAck(seq: seq, offset: offset))
                action = .writeAndSync(seq: seq)
            case .ackAndEnd(let seq, let offset, let status):
                link.post(.fileAck(seq: seq, offset: offset))
                action = .end(seq: seq, status)
            case .ackAndComplete(let seq, let offset):
                link.post(.fileAck(seq: seq, offset: offset))
                action = .complete(seq: seq)
            case .complete(let seq):
                guard let file = receiving, file.offer.seq == seq else { return true }
                let outcome: FileOutcome
                do {
                    outcome = try await engine.store.files.completeIncoming(file)
                } catch {
                    return await refuse(error, on: link, engine)
                }
                received(file, outcome, engine)
                action = receiver.event(.completed(seq: seq, outcome))
            case .cancel(let seq):
                guard let peer = link.peerHello?.storeId else { return false }
                let cancelled = receiving?.offer.seq == seq ? receiving : nil
                if cancelled != nil { dropReceiving() }
                guard await syncIdle(engine) else { return false }
                do {
                    try await engine.store.files.cancelIncoming(from: peer, seq: seq)
                } catch {
                    return await refuse(error, on: link, engine)
                }
                if let file = cancelled {
                    emit(.fileCancelled, "file \(file.offer.fileName) cancelled by the sender; its partial copy was dropped", file.offer, offset: file.durableOffset, engine)
                }
                return true
            }
        }
    }

    /// The store could not take the peer's file: tell the peer why and close; nothing was acknowledged
    /// beyond what is durable, so the sender resumes from there later.
    private func refuse(_ error: StoreError, on link: Link, _ engine: isolated PairEngine) async -> Bool {
        engine.logger.warning("could not store a received file", metadata: ["error": "\(error)"])
        if let file = receiving {
            emit(.fileFailed, "file \(file.offer.fileName) could not be stored: \(error.message); the sender resumes from \(file.durableOffset) later",
                 file.offer, offset: file.durableOffset, errorCode: error.wcCode, engine)
        }
        let reason: CloseReason = error.wcCode == .insufficientSpace ? .refusedForSpace : .peerError(error.wcCode)
        await LinkSession(link).close(telling: .error(relatesTo: 0, code: error.wcCode, reason: error.message), as: reason, engine)
        return false
    }
}
