import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// The file channel end to end over the in-memory transport pair and the manual clock: whole, once,
/// verified, resumed (not restarted) after a link drop or a restart of either engine, in order with userInfo.
@Suite("file channel", .timeLimit(.minutes(3)))
struct FileChannelTests {
    /// A file of `size` pseudo-random bytes (seeded, so every run sends the same) in the pair's directory.
    static func makeFile(_ pair: EnginePair, _ name: String, size: Int, seed: UInt64 = 1) throws -> (path: String, bytes: Data) {
        var state = seed
        var raw = [UInt8](repeating: 0, count: size)
        for index in 0..<size {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            raw[index] = UInt8(truncatingIfNeeded: state >> 33)
        }
        let bytes = Data(raw)
        let path = pair.directory + "/" + name
        try bytes.write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    /// Waits until the (current) watch holds `count` received files and the phone has `count` finished,
    /// then returns the received files.
    static func delivered(_ count: Int, _ pair: EnginePair) async throws -> [IncomingFile] {
        let watch = try #require(pair.engine(.watch))
        let phone = try #require(pair.engine(.phone))
        try await until("\(count) files received", on: watch.appSignal, limit: .seconds(60)) {
            ((try? await watch.pendingFiles()) ?? []).count == count
        }
        try await until("\(count) files finished", on: phone.appSignal, limit: .seconds(60)) {
            ((try? await phone.pendingFinishedFiles()) ?? []).count == count
        }
        return try await watch.pendingFiles()
    }

    @Test("a multi-MiB file arrives once, byte for byte, with its metadata; the sender's app could delete its file at once")
    func wholeFile() async throws {
        let pair = try EnginePair(.inMemory, clock: ManualClock())
        let (path, bytes) = try Self.makeFile(pair, "track.gpx", size: 5 * (1 << 20) + 3)
        let phone = try await pair.start(.phone)
        let accepted = try await phone.transferFile(at: path, metadata: ["kind": .string("track")])
        try FileManager.default.removeItem(atPath: path)
        #expect(try await phone.outstandingFileTransfers().map(\.transferId) == [accepted.transferId])
        try await pair.start(.watch)

        let received = try await Self.delivered(1, pair)
        let file = try #require(received.first)
        #expect(file.offer.transferId == accepted.transferId)
        #expect(file.offer.fileName == "track.gpx")
        #expect(file.offer.metadata?.dictionary == ["kind": .string("track")])
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.spoolPath)) == bytes)
        #expect(CRC32C.checksum(bytes) == file.offer.checksum)
        let phoneSide = try #require(pair.engine(.phone))
        #expect(try await phoneSide.pendingFinishedFiles().map(\.outcome) == [.received])
        #expect(try await phoneSide.outstandingFileTransfers().isEmpty)
        await pair.tearDown()
    }

    enum Interruption: String, CaseIterable, CustomTestStringConvertible {
        case linkDrop, receiverRestart, senderRestart
        var testDescription: String { rawValue }
    }

    @Test("interrupted at 30% and again at 60%, the file is resumed from the durable offset: sent bytes < 1.5× the file",
          arguments: Interruption.allCases)
    func resumed(_ interruption: Interruption) async throws {
        let pair = try EnginePair(.inMemory, clock: ManualClock())
        // Each interruption may cost up to one window: eight windows keep two of them under half the file.
        let size = 8 * Int(EngineConfiguration(role: .phone).fileWindow)
        let (path, bytes) = try Self.makeFile(pair, "big.bin", size: size, seed: 7)
        let counter = TransportCounter()
        let startPhone = { try await pair.start(.phone, transport: CountingTransport(wrapping: pair.transport(for: .phone), counter: counter)) }
        let phone = try await startPhone()
        let accepted = try await phone.transferFile(at: path, metadata: nil)
        try await pair.start(.watch)

        for fraction in [0.3, 0.6] {
            try await until("\(Int(fraction * 100))% sent", on: counter.written, limit: .seconds(60)) {
                counter.bytes >= Int(Double(size) * fraction)
            }
            switch interruption {
            case .linkDrop:
                pair.network.dropAllConnections()
            case .receiverRestart:
                await pair.stop(.watch)
                try await pair.start(.watch)
            case .senderRestart:
                await pair.stop(.phone)
                _ = try await startPhone()
            }
        }
        let received = try await Self.delivered(1, pair)
        #expect(received.map(\.offer.transferId) == [accepted.transferId])
        #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(received.first).spoolPath)) == bytes)
        #expect(counter.bytes < size * 3 / 2, "sent \(counter.bytes) bytes for a file of \(size)")
        #expect(counter.bytes >= size)
        await pair.tearDown()
    }

    @Test("files and userInfo interleaved keep each channel's order")
    func interleavedWithUserInfo() async throws {
        let pair = try EnginePair(.inMemory, clock: ManualClock())
        let phone = try await pair.start(.phone)
        try await pair.start(.watch)
        var files: [UUID] = []
        var transfers: [UUID] = []
        for round in 0..<3 {
            let (path, _) = try Self.makeFile(pair, "part\(round)", size: (1 << 20) + round, seed: UInt64(round))
            files.append(try await phone.transferFile(at: path, metadata: ["round": .integer(Int64(round))]).transferId)
            for n in 0..<20 {
                transfers.append(try await phone.transferUserInfo(["n": .integer(Int64(round * 20 + n))]).transferId)
            }
        }
        let received = try await Self.delivered(3, pair)
        #expect(received.map(\.offer.transferId) == files)
        let watch = try #require(pair.engine(.watch))
        try await until("60 userInfo", on: watch.appSignal) { ((try? await watch.pendingUserInfo(limit: 100)) ?? []).count == 60 }
        #expect(try await watch.pendingUserInfo(limit: 100).map(\.transferId) == transfers)
        await pair.tearDown()
    }

    @Test("cancelling a file mid-transfer leaves no partial file at the receiver; the next file follows")
    func cancelMidTransfer() async throws {
        let pair = try EnginePair(.inMemory, clock: ManualClock())
        let counter = TransportCounter()
        let phone = try await pair.start(.phone, transport: CountingTransport(wrapping: pair.transport(for: .phone), counter: counter))
        _ = try await pair.start(.watch)
        let (big, _) = try Self.makeFile(pair, "big", size: 16 << 20)
        let (small, smallBytes) = try Self.makeFile(pair, "small", size: 1000)
        let cancelled = try await phone.transferFile(at: big, metadata: nil)
        let next = try await phone.transferFile(at: small, metadata: nil)
        try await until("some of it sent", on: counter.written) { counter.bytes >= 2 << 20 }
        #expect(try await phone.cancelFileTransfer(cancelled.transferId))
        #expect(try await phone.cancelFileTransfer(cancelled.transferId) == false)

        _ = try await Self.delivered(1, pair)
        #expect(try await pair.engine(.watch)!.pendingFiles().map(\.offer.transferId) == [next.transferId])
        let incoming = pair.directory + "/watchd-state/spool/incoming"
        #expect(try FileManager.default.contentsOfDirectory(atPath: incoming) == [next.transferId.uuidString])
        let file = try #require(try await pair.engine(.watch)!.pendingFiles().first)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.spoolPath)) == smallBytes)
        try await pair.engine(.watch)!.acknowledgeFile(next.transferId)
        #expect(try FileManager.default.contentsOfDirectory(atPath: incoming).isEmpty)
        await pair.tearDown()
    }
}
