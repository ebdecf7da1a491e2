import Foundation
import Testing
import WatchPairWire

/// What a raw control client can send that `wcctl` never would: each gets the documented error response
/// (docs/ControlProtocol.md), and the daemon keeps serving that client and every other one.
@Suite("Malformed control requests")
struct MalformedRequestTests {
    /// One bad line and the error it must get.
    struct BadLine: Sendable, CustomTestStringConvertible {
        var name: String
        /// The line's bytes, without the newline.
        var bytes: [UInt8]
        /// The `id` the response must carry (`null` when none could be read).
        var id: JSONValue
        var code: Int64

        init(name: String, line: String, id: JSONValue, code: Int64) {
            self.init(name: name, bytes: Array(line.utf8), id: id, code: code)
        }

        init(name: String, bytes: [UInt8], id: JSONValue, code: Int64) {
            (self.name, self.bytes, self.id, self.code) = (name, bytes, id, code)
        }

        var testDescription: String { name }
    }

    static let badLines: [BadLine] = [
        BadLine(name: "not JSON", line: "hello daemon", id: .null, code: 7008),
        BadLine(name: "truncated JSON", line: #"{"id":1,"op":"status""#, id: .null, code: 7008),
        BadLine(name: "not an object", line: "[1,2,3]", id: .null, code: 7008),
        BadLine(name: "a bare string", line: #""status""#, id: .null, code: 7008),
        BadLine(name: "unknown op", line: #"{"id":5,"op":"frobnicate"}"#, id: .integer(5), code: 7008),
        BadLine(name: "missing op", line: #"{"id":6}"#, id: .integer(6), code: 7008),
        BadLine(name: "missing field", line: #"{"id":7,"op":"transfer"}"#, id: .integer(7), code: 7008),
        BadLine(name: "ill-typed field", line: #"{"id":8,"op":"send","message":"text"}"#, id: .integer(8), code: 7008),
        BadLine(name: "bad transfer id", line: #"{"id":9,"op":"cancel","transferId":"nope"}"#, id: .integer(9), code: 7008),
        BadLine(name: "unknown channel", line: #"{"id":10,"op":"receive","channels":["telepathy"]}"#, id: .integer(10), code: 7008),
        BadLine(name: "answer for an unknown token", line: #"{"id":11,"op":"answer","token":424242,"reply":{}}"#, id: .integer(11), code: 7008),
        BadLine(name: "null inside a payload", line: #"{"id":12,"op":"transfer","userInfo":{"a":null}}"#, id: .integer(12), code: 7010),
        // A lone 0xFF byte where a string character should be: the id cannot be trusted before UTF-8 is.
        BadLine(name: "invalid UTF-8", bytes: Array(#"{"id":13,"op":"status","x":""#.utf8) + [0xFF] + Array(#""}"#.utf8), id: .null, code: 7008),
    ]

    @Test("each bad line gets its error; the same connection keeps working")
    func badLinesOnOneConnection() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            let client = try await RawControlClient(path: pair.controlPath(.phone))
            defer { client.close() }
            for (index, bad) in Self.badLines.enumerated() {
                try await client.write(bad.bytes + [UInt8(ascii: "\n")])
                // Responses come in order on one connection: wait for this one (the index-th line).
                #expect(await client.lines.wait(timeout: .seconds(20)) { $0.count > index }, "no response to \(bad.name)")
                guard let text = client.lines.lines.dropFirst(index).first, let response = JSONValue.from(text) else {
                    Issue.record("\(bad.name): response is not JSON: \(client.lines.lines)")
                    continue
                }
                #expect(response["ok"] == .bool(false), "\(bad.name): \(text)")
                #expect(response["id"] == bad.id, "\(bad.name): \(text)")
                #expect(response["error"]?["code"] == .integer(bad.code), "\(bad.name): \(text)")
                #expect(response["error"]?["name"]?.stringValue?.isEmpty == false, "\(bad.name): \(text)")
                #expect(response["error"]?["message"]?.stringValue?.isEmpty == false, "\(bad.name): \(text)")
            }
            // Still usable, and a normal request on it works.
            try await client.send(line: #"{"id":100,"op":"status"}"#)
            let status = await client.response(id: .integer(100))
            #expect(status?["ok"] == .bool(true), "\(client.lines.lines)")
            #expect(status?["result"]?["role"] == .string("phone"))
            #expect(!client.lines.isFinished, "the daemon closed the connection")
        }
    }

    @Test("a line over 1 MiB gets 7008 and closes only that connection")
    func oversizeLine() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            let bystander = try await RawControlClient(path: pair.controlPath(.phone))
            defer { bystander.close() }
            try await bystander.send(line: #"{"id":1,"op":"status"}"#)
            #expect(await bystander.response(id: .integer(1))?["ok"] == .bool(true))

            let flooder = try await RawControlClient(path: pair.controlPath(.phone))
            defer { flooder.close() }
            var line = Array(#"{"id":2,"op":"transfer","userInfo":{"s":""#.utf8)
            line += [UInt8](repeating: UInt8(ascii: "x"), count: (1 << 20) + 100)
            line += Array("\"}}\n".utf8)
            // The daemon may close the connection before it read everything we write: EPIPE is fine.
            do { try await flooder.write(line) } catch {}
            #expect(await flooder.lines.waitForEnd(timeout: .seconds(20)), "the daemon must close a connection whose line is over the limit")
            let response = flooder.lines.lines.first.flatMap(JSONValue.from)
            #expect(response?["ok"] == .bool(false), "\(flooder.lines.lines.map { $0.prefix(200) })")
            #expect(response?["id"] == .null)
            #expect(response?["error"]?["code"] == .integer(7008))

            // Every other client is served: the open one and a new wcctl.
            try await bystander.send(line: #"{"id":3,"op":"status"}"#)
            #expect(await bystander.response(id: .integer(3))?["ok"] == .bool(true), "\(bystander.lines.lines)")
            #expect(try await pair.wcctl(["status"]).status == 0)
            #expect(try await pair.ok(["transfers"]).stdout == ["no outstanding transfers"], "the oversize transfer must not be queued")
        }
    }

    @Test("stalled, half-written and vanishing clients do not hold up anyone else")
    func misbehavingClients() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            // Half a line, never finished.
            let stalled = try await RawControlClient(path: pair.controlPath(.phone))
            defer { stalled.close() }
            try await stalled.write(Array(#"{"id":1,"op":"sta"#.utf8))
            // A client that sends a request and disappears without reading.
            let vanishing = try await RawControlClient(path: pair.controlPath(.phone))
            try await vanishing.send(line: #"{"id":1,"op":"events","follow":true}"#)
            vanishing.close()
            // A client that connects and closes at once (like the peer's "is it running" probe).
            await RawControlClient.probe(path: pair.controlPath(.phone))

            let status = try await pair.ok(["--json", "status"])
            #expect(status.object?["role"] == .string("phone"), "\(status)")
            // The stalled client's line completes later and is then answered.
            try await stalled.write(Array("tus\"}\n".utf8))
            #expect(await stalled.response(id: .integer(1))?["ok"] == .bool(true), "\(stalled.lines.lines)")
            #expect(pair.daemon(.phone)?.isRunning == true)
        }
    }
}

extension RawControlClient {
    /// Connects and closes at once, ignoring errors.
    static func probe(path: String) async {
        (try? await RawControlClient(path: path))?.close()
    }
}
