import Foundation
import Testing
import WatchPairWire

/// Bad input and cancellation of file transfers at the daemons' faces (docs/Design.md, "File transfers";
/// issue 14's proof): the control socket and `wcctl` refuse a file they cannot read with 7008 naming its
/// path, at once and with nothing queued; `wcctl files cancel` mid-file leaves nothing of it at the receiver.
@Suite("File transfers: bad input and cancel at the daemons")
struct FileBadInputProcessTests {
    @Test("control socket: a missing, relative, FIFO or folder path is 7008 naming it, at once; nothing queued",
          .timeLimit(.minutes(3)))
    func controlSocketBadPaths() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            let fifo = pair.path("pipe")
            try #require(mkfifo(fifo, 0o600) == 0)
            let client = try await RawControlClient(path: pair.controlPath(.phone))
            defer { client.close() }
            let paths = [pair.path("nowhere.bin"), "relative/ride.fit", fifo, pair.dir]
            for (index, path) in paths.enumerated() {
                let id = JSONValue.integer(Int64(index + 1))
                try await client.send(.object(["id": id, "op": .string("transferFile"), "path": .string(path)]))
                let response = await client.response(id: id)
                #expect(response?["ok"] == .bool(false), "\(path): \(client.lines.lines)")
                #expect(response?["error"]?["code"] == .integer(7008), "\(path): \(client.lines.lines)")
                #expect(response?["error"]?["message"]?.stringValue?.contains(path) == true, "\(path): \(client.lines.lines)")
            }
            #expect(try await pair.status(.phone)["outstandingFiles"]?.integerValue == 0)
        }
    }

    @Test("wcctl: a FIFO is 7008 naming it, at once (the daemon does not wait for a writer)", .timeLimit(.minutes(3)))
    func wcctlFifo() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            let fifo = pair.path("pipe")
            try #require(mkfifo(fifo, 0o600) == 0)
            let run = try await pair.wcctl(["transfer-file", fifo], timeout: .seconds(20))
            expectWCError(run, 7008)
            #expect(run.stderr.contains(fifo), "\(run)")
            // The daemon is not stuck: a readable file is accepted next.
            _ = try FileTransferProcessTests.makeFile(pair.path("ok.bin"), size: 100)
            try await pair.ok(["transfer-file", pair.path("ok.bin")])
        }
    }

    @Test("wcctl files cancel mid-file: the watch keeps no partial file and gets fileCancelled; the next file arrives")
    func cancelMidFile() async throws {
        try await PairSandbox.with { pair in
            // The phone reaches the watch through a gate that stops the file at 30%, so the cancel is
            // certain to come mid-file.
            let gate = ByteGate()
            let toWatch = try ByteCountingProxy(path: pair.path("w.proxy"), upstream: pair.linkPath(.watch), gate: gate, counting: .toUpstream)
            defer { toWatch.stop() }
            try pair.configure(.phone, ["paths": .object(["peerLink": .string(toWatch.path)])])
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let size = 8 << 20
            _ = try FileTransferProcessTests.makeFile(pair.path("big.bin"), size: size)
            gate.hold(at: gate.passed + size * 3 / 10)
            let id = try #require(try await pair.ok(["transfer-file", pair.path("big.bin")]).stdout.first)
            try await pair.pollUntil("the link held at 30% of the file", timeout: .seconds(60)) { gate.isHolding }
            let incoming = pair.path("watchd/spool/incoming")
            let partial = try FileManager.default.contentsOfDirectory(atPath: incoming)
            #expect(!partial.isEmpty, "the watch holds part of the file before the cancel")
            try await pair.ok(["files", "cancel", id])
            gate.hold(at: Int.max)
            try await pair.pollUntil("fileCancelled at the watch", timeout: .seconds(60)) {
                let events = try await pair.ok(["--json", "events"], side: .watch)
                return events.json.contains { $0["event"]?.stringValue == "fileCancelled" }
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: incoming).isEmpty, "a partial file stayed")
            let next = try FileTransferProcessTests.makeFile(pair.path("next.bin"), size: 1 << 20)
            try await pair.ok(["transfer-file", pair.path("next.bin")])
            try await pair.ok(["wait", "drained", "--timeout", "30"])
            try await pair.pollUntil("the next file in the watch's files/ directory") {
                (try? Data(contentsOf: URL(fileURLWithPath: pair.path("watchd/files/next.bin")))) == next
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: pair.path("watchd/files")) == ["next.bin"])
        }
    }
}
