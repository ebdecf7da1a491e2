import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// The file channel's diagnostic events (docs/Systemd.md, "journald"): what each side reports, with the file's
/// name, size and offset, over the in-memory pair.
@Suite("file events", .timeLimit(.minutes(3)))
struct FileEventTests {
    /// Collects `stream`'s file events until one of `kind` (included), within a safety bound.
    static func fileEvents(_ stream: AsyncStream<DiagnosticEvent>, until kind: DiagnosticEvent.Kind) async throws -> [DiagnosticEvent] {
        try await withTimeout(.seconds(60), "event \(kind)") {
            var events: [DiagnosticEvent] = []
            for await event in stream where event.channel == .file {
                events.append(event)
                if event.kind == kind { return events }
            }
            throw StreamEnded(what: "event \(kind)")
        }
    }

    @Test("a file: fileQueued, at most ten fileProgress with rising offsets, fileFinished at the sender; fileReceived at the receiver")
    func wholeFile() async throws {
        let pair = try EnginePair(.inMemory, clock: ManualClock())
        let size = 6 << 20
        let (path, _) = try FileChannelTests.makeFile(pair, "ride.fit", size: size)
        let phone = try await pair.start(.phone)
        let phoneEvents = phone.diagnostics.subscribe()
        let accepted = try await phone.transferFile(at: path, metadata: nil)
        let watch = try await pair.start(.watch)
        let watchEvents = watch.diagnostics.subscribe()

        let sent = try await Self.fileEvents(phoneEvents, until: .fileFinished)
        #expect(sent.first?.kind == .fileQueued)
        #expect(sent.allSatisfy { $0.transferId == accepted.transferId && $0.seq == accepted.seq })
        #expect(sent.allSatisfy { $0.file?.name == "ride.fit" && $0.file?.bytes == UInt64(size) })
        let offsets = sent.filter { $0.kind == .fileProgress }.compactMap(\.file?.offset)
        #expect(!offsets.isEmpty && offsets.count <= 10, "\(offsets)")
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 + UInt64(size / 10) <= $1 }, "\(offsets)")
        #expect(offsets.allSatisfy { $0 > 0 && $0 < UInt64(size) })
        #expect(sent.last?.file?.offset == UInt64(size))
        #expect(Set(sent.map(\.kind)) == [.fileQueued, .fileProgress, .fileFinished])

        let received = try await Self.fileEvents(watchEvents, until: .fileReceived)
        #expect(received.map(\.kind) == [.fileReceived])
        #expect(received.first?.transferId == accepted.transferId)
        #expect(received.first?.file == DiagnosticEvent.FileFields(name: "ride.fit", bytes: UInt64(size), offset: UInt64(size)))
        await pair.tearDown()
    }

    @Test("an unreadable file is fileFailed with 7008 and nothing is queued")
    func unreadable() async throws {
        let pair = try EnginePair(.inMemory, clock: ManualClock())
        let phone = try await pair.start(.phone)
        let events = phone.diagnostics.subscribe()
        await #expect(throws: WCFailure.self) { try await phone.transferFile(at: pair.directory + "/missing", metadata: nil) }
        let failed = try await events.first(.fileFailed)
        #expect(failed.errorCode == .invalidParameter && failed.channel == .file)
        #expect(failed.message.contains(pair.directory + "/missing"))
        #expect(try await phone.outstandingFileTransfers().isEmpty)
        await pair.tearDown()
    }

    @Test("a file cancelled mid-transfer is fileCancelled at both sides")
    func cancelled() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock)
        let phone = try await pair.start(.phone)
        let faults = FaultInjectingTransport(wrapping: pair.transport(for: .watch), clock: clock)
        let watch = try await pair.start(.watch, transport: faults)
        let phoneEvents = phone.diagnostics.subscribe()
        let watchEvents = watch.diagnostics.subscribe()
        // Once the handshake is done (the phone is reachable only then), every write of the watch is
        // held: its answer to the offer never arrives, so the file is open at the watch and cannot end.
        try await until("linked", on: phone.stateSignal) { await phone.status().reachable }
        faults.inject(.delay(.seconds(60)))
        var applied = faults.appliedFaults.makeAsyncIterator()
        let (path, _) = try FileChannelTests.makeFile(pair, "huge.bin", size: 8 << 20)
        let file = try await phone.transferFile(at: path, metadata: nil)
        #expect(await applied.next()?.fault == .delay(.seconds(60)))  // the watch answered the offer
        // Both sides count the file in their status: outstanding at the phone, arriving at the watch.
        let phoneStatus = await phone.status()
        #expect(phoneStatus.outstandingFiles == 1 && !phoneStatus.isDrained)
        #expect(await watch.status().receivingFile)
        #expect(try await phone.cancelFileTransfer(file.transferId))
        let sender = try await phoneEvents.first(.fileCancelled)
        #expect(sender.transferId == file.transferId && sender.file?.name == "huge.bin")
        let receiver = try await watchEvents.first(.fileCancelled)
        #expect(receiver.transferId == file.transferId && receiver.file?.bytes == 8 << 20 && receiver.file?.offset == 0)
        #expect(await phone.status().outstandingFiles == 0)
        #expect(await !watch.status().receivingFile)
        await pair.tearDown()
    }

    @Test("a chunk's byte changed on the way: the frame passes (its checksum covers its header), the file's checksum does not; dropped, fileFailed 7014 at the sender")
    func corruptedInTransit() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock)
        let faults = FaultInjectingTransport(wrapping: pair.transport(for: .phone), clock: clock)
        let phone = try await pair.start(.phone, transport: faults)
        let phoneEvents = phone.diagnostics.subscribe()
        // Byte 100 of the first two chunks' bytes (after length, type, seq, offset and count: 25 bytes).
        faults.inject(.corrupt(byteOffset: 25 + 100), on: .frame(.fileChunk), count: 2)
        let (path, _) = try FileChannelTests.makeFile(pair, "bent.bin", size: 1 << 20)
        let file = try await phone.transferFile(at: path, metadata: nil)
        let watch = try await pair.start(.watch)
        let watchEvents = watch.diagnostics.subscribe()

        let received = try await Self.fileEvents(watchEvents, until: .fileFailed)
        #expect(received.last?.transferId == file.transferId && received.last?.errorCode == .deliveryFailed)
        let sent = try await Self.fileEvents(phoneEvents, until: .fileFailed)
        #expect(sent.last?.transferId == file.transferId && sent.last?.errorCode == .deliveryFailed)
        #expect(try await watch.pendingFiles().isEmpty)
        #expect(try await phone.outstandingFileTransfers().isEmpty)
        await pair.tearDown()
    }
}
