import Foundation
import Testing
import WatchPairWire

/// File transfers between the real daemons, driven by `wcctl transfer-file` and `wcctl files`: a file
/// lands whole in the watch's `files/` directory, and a `kill -9` of either daemon mid-file resumes it.
@Suite("File transfers between the daemons")
struct FileTransferProcessTests {
    /// `size` random bytes written to `path`.
    static func makeFile(_ path: String, size: Int) throws -> Data {
        guard let random = FileHandle(forReadingAtPath: "/dev/urandom") else { throw SandboxError("cannot open /dev/urandom") }
        defer { try? random.close() }
        let bytes = random.readData(ofLength: size)
        try bytes.write(to: URL(fileURLWithPath: path))
        return bytes
    }

    /// The bytes the phone's outstanding file has had acknowledged, nil when none is outstanding.
    static func acknowledged(_ pair: PairSandbox) async throws -> UInt64? {
        let files = try await pair.ok(["--json", "files"])
        return files.json.compactMap { $0["outgoing"]?["acknowledged"]?.integerValue }.first.map { UInt64($0) }
    }

    @Test("a 6 MiB file arrives in the watch's files/ directory with an equal checksum; --wait shows a line per 10% and exits 0")
    func wholeFile() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let size = 6 * (1 << 20) + 5
            let bytes = try Self.makeFile(pair.path("track.gpx"), size: size)
            let run = try await pair.ok(["transfer-file", pair.path("track.gpx"), "--metadata", #"{"kind":"track"}"#, "--wait"])
            let id = try #require(run.stdout.first)
            #expect(UUID(uuidString: id) != nil, "\(run)")
            let progress = run.stderr.split(separator: "\n").filter { $0.hasPrefix("track.gpx ") }
            #expect(!progress.isEmpty && progress.count <= 10, "\(run.stderr)")
            #expect(progress.last == "track.gpx 100% (\(size) of \(size) bytes)", "\(run.stderr)")

            let landed = pair.path("watchd/files/track.gpx")
            try await pair.pollUntil("the file in the watch's files/ directory") { FileManager.default.fileExists(atPath: landed) }
            let received = try Data(contentsOf: URL(fileURLWithPath: landed))
            #expect(CRC32C.checksum(received) == CRC32C.checksum(bytes))
            #expect(received == bytes)
            let listed = try await pair.ok(["--json", "files"], side: .watch)
            #expect(listed.json.compactMap { $0["received"]?["path"]?.stringValue } == [landed], "\(listed)")
            #expect(listed.json.compactMap { $0["received"]?["size"]?.integerValue } == [Int64(size)])
            #expect(try await pair.ok(["files"]).stdout == ["no outstanding or received files"])
            // Without --wait, `wait drained` waits for the file too.
            let second = try Self.makeFile(pair.path("second.gpx"), size: 3 << 20)
            try await pair.ok(["transfer-file", pair.path("second.gpx")])
            try await pair.ok(["wait", "drained", "--timeout", "30"])
            #expect(try await pair.status(.phone)["outstandingFiles"]?.integerValue == 0)
            try await pair.pollUntil("the second file in the watch's files/ directory") {
                (try? Data(contentsOf: URL(fileURLWithPath: pair.path("watchd/files/second.gpx")))) == second
            }
            // The phone's app is told it finished.
            let finished = try await pair.receivePending(.phone, channels: ["didFinish"])
            #expect(finished.compactMap { $0["transferId"]?.stringValue }.first == id, "\(finished)")
            #expect(finished.compactMap { $0["file"]?["fileName"]?.stringValue } == ["track.gpx", "second.gpx"])
        }
    }

    @Test("bad input: a missing file is 7008 naming it, metadata that is not an object 7008, not a property list 7010; nothing queued")
    func badInput() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            let missing = pair.path("nowhere.bin")
            let run = try await pair.wcctl(["transfer-file", missing])
            expectWCError(run, 7008)
            #expect(run.stderr.contains(missing), "\(run)")
            _ = try Self.makeFile(pair.path("a.bin"), size: 10)
            expectWCError(try await pair.wcctl(["transfer-file", pair.path("a.bin"), "--metadata", "[1]"]), 7008)
            expectWCError(try await pair.wcctl(["transfer-file", pair.path("a.bin"), "--metadata", #"{"n":null}"#]), 7010)
            expectWCError(try await pair.wcctl(["transfer-file", pair.dir]), 7008)
            #expect(try await pair.ok(["files"]).stdout == ["no outstanding or received files"])
        }
    }

    @Test("kill -9 of the daemon at 30% and again at 60% of the file: it arrives once, equal, resumed (bytes sent < 1.5× the file)",
          arguments: [Side.watch, Side.phone])
    func killedMidFile(_ killed: Side) async throws {
        try await PairSandbox.with { pair in
            // Every byte either side sends the other passes the gate, whichever side opened the link.
            let gate = ByteGate()
            let toWatch = try ByteCountingProxy(path: pair.path("w.proxy"), upstream: pair.linkPath(.watch), gate: gate, counting: .toUpstream)
            let toPhone = try ByteCountingProxy(path: pair.path("p.proxy"), upstream: pair.linkPath(.phone), gate: gate, counting: .fromUpstream)
            defer {
                toWatch.stop()
                toPhone.stop()
            }
            try pair.configure(.phone, ["paths": .object(["peerLink": .string(toWatch.path)])])
            try pair.configure(.watch, ["paths": .object(["peerLink": .string(toPhone.path)])])
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let size = 24 << 20
            let bytes = try Self.makeFile(pair.path("big.bin"), size: size)
            let start = gate.passed
            for fraction in [3, 6] {
                gate.hold(at: start + size * fraction / 10)
                if fraction == 3 { try await pair.ok(["transfer-file", pair.path("big.bin")]) }
                try await pair.pollUntil("the link held at \(fraction)0% of the file", timeout: .seconds(60)) { gate.isHolding }
                await pair.killDaemon(killed)
                gate.hold(at: Int.max)
                try await pair.startReady(killed)
            }
            let landed = pair.path("watchd/files/big.bin")
            try await pair.pollUntil("the file in the watch's files/ directory", timeout: .seconds(90)) {
                FileManager.default.fileExists(atPath: landed)
            }
            let received = try Data(contentsOf: URL(fileURLWithPath: landed))
            #expect(received == bytes)
            let sent = gate.passed - start
            #expect(sent >= size && sent < size * 3 / 2, "sent \(sent) bytes for a file of \(size)")
            let listed = try await pair.ok(["--json", "files"], side: .watch)
            #expect(listed.json.compactMap { $0["received"]?["name"]?.stringValue } == ["big.bin"], "arrived once: \(listed)")
        }
    }
}
