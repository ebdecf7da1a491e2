import Foundation
import Testing
import WatchPairWire

/// Each channel end to end: real `phoned` and `watchd`, driven by the real `wcctl`, with a
/// `wcctl receive --follow` process acting as the app on the other side.
@Suite("Channels end to end")
struct ChannelTests {
    @Test("send: a message with a reply prints the reply; --no-reply is delivered without one")
    func messageWithReply() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let app = try await pair.startHandler(["receive", "--follow", "--reply", #"{"pong":true,"n":{"$data":"AAE="}}"#], side: .watch)

            let reply = try await pair.wcctl(["send", #"{"ping":1,"at":{"$date":"2024-05-01T12:00:00Z"}}"#])
            #expect(reply.status == 0, "\(reply)")
            #expect(reply.stdout == [#"{"n":{"$data":"AAE="},"pong":true}"#], "\(reply)")

            let json = try await pair.ok(["--json", "send", #"{"ping":2}"#])
            #expect(json.stdout == [#"{"reply":{"n":{"$data":"AAE="},"pong":true}}"#], "\(json)")

            let noReply = try await pair.ok(["send", "--no-reply", #"{"tap":3}"#])
            #expect(noReply.stdout.isEmpty, "\(noReply)")

            // The app printed the three messages, in send order, with their variants.
            let printed = await app.stdout.wait(timeout: .seconds(20)) { $0.count >= 3 }
            #expect(printed, "receive printed \(app.stdout.lines)")
            let messages = app.stdout.lines.compactMap(JSONValue.from)
            #expect(messages.compactMap { $0["channel"]?.stringValue } == Array(repeating: "message", count: 3), "\(messages)")
            #expect(messages.compactMap { $0["variant"]?.stringValue } == ["dictionaryWithReply", "dictionaryWithReply", "dictionary"])
            #expect(messages.map { $0["message"]?["ping"] ?? $0["message"]?["tap"] } == [.integer(1), .integer(2), .integer(3)])
            // The same instant; the daemon may write it with fractional seconds.
            let date = messages.first?["message"]?["at"]?["$date"]?.stringValue ?? ""
            #expect(date.hasPrefix("2024-05-01T12:00:00") && date.hasSuffix("Z"), "\(messages)")
            #expect(app.isRunning, "receive --follow exited: \(app.stderrText)")
        }
    }

    @Test("send-data: the reply bytes come back as they are; --no-reply delivers the bytes")
    func dataMessage() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            // A data reply: this app handles data messages with and without a reply.
            let pong = Data("pong\n".utf8).base64EncodedString()
            let app = try await pair.startHandler(["receive", "--follow", "--channel", "message", "--reply", #"{"$data":"\#(pong)"}"#], side: .watch)
            let file = pair.path("ping.bin")
            try Data([0, 1, 2, 255]).write(to: URL(fileURLWithPath: file))

            let reply = try await pair.wcctl(["send-data", file])
            #expect(reply.status == 0, "\(reply)")
            #expect(reply.stdout == ["pong"], "\(reply)")
            let json = try await pair.ok(["--json", "send-data", file])
            #expect(json.stdout == [#"{"reply":{"$data":"\#(pong)"}}"#], "\(json)")
            let noReply = try await pair.ok(["send-data", "--no-reply", file])
            #expect(noReply.stdout.isEmpty, "\(noReply)")

            #expect(await app.stdout.wait(timeout: .seconds(20)) { $0.count >= 3 }, "receive printed \(app.stdout.lines)")
            let messages = app.stdout.lines.compactMap(JSONValue.from)
            #expect(messages.compactMap { $0["variant"]?.stringValue } == ["dataWithReply", "dataWithReply", "data"], "\(messages)")
            let sent = JSONValue.object(["$data": .string(Data([0, 1, 2, 255]).base64EncodedString())])
            #expect(messages.allSatisfy { $0["data"] == sent }, "\(messages)")
        }
    }

    @Test("transfer: each userInfo arrives once, in order; the sender gets didFinish for each")
    func userInfoTransfer() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let app = try pair.startWcctl(["receive", "--follow", "--channel", "userInfo"], side: .watch)
            var sent: [String] = []
            for n in 1...5 {
                sent.append(try await pair.transfer(#"{"n":\#(n),"blob":{"$data":"3q2+7w=="}}"#))
            }
            let ids = sent
            #expect(Set(ids).count == 5)

            #expect(await app.stdout.wait(timeout: .seconds(20)) { $0.count >= 5 }, "receive printed \(app.stdout.lines)\n\(pair.diagnostics())")
            let items = app.stdout.lines.compactMap(JSONValue.from)
            #expect(items.compactMap { $0["transferId"]?.stringValue } == ids)
            #expect(items.compactMap { $0["userInfo"]?["n"]?.integerValue } == [1, 2, 3, 4, 5])
            #expect(items.allSatisfy { $0["channel"] == .string("userInfo") && $0["userInfo"]?["blob"] == .object(["$data": .string("3q2+7w==")]) })
            let seqs = items.compactMap { $0["seq"]?.integerValue }
            #expect(seqs == seqs.sorted() && Set(seqs).count == 5, "seq must increase: \(seqs)")

            // The phone's app is told each transfer finished, once each.
            try await pair.pollUntil("5 didFinish notices on the phone") {
                try await pair.status(.phone)["outstandingTransfers"] == .integer(0)
            }
            let finished = try await pair.receivePending(.phone, channels: ["didFinish"])
            #expect(finished.compactMap { $0["transferId"]?.stringValue } == ids, "\(finished)")
            #expect(finished.allSatisfy { $0["channel"] == .string("didFinish") })
            #expect(try await pair.receivePending(.phone, channels: ["didFinish"]).isEmpty, "acknowledged notices must not come again")
            // Nothing is delivered twice: a second receive on the watch finds nothing pending.
            #expect(try await pair.receivePending(.watch, channels: ["userInfo"]).isEmpty)
        }
    }

    @Test("transfers lists what is outstanding, oldest first; transfers cancel removes one before delivery")
    func outstandingAndCancel() async throws {
        try await PairSandbox.with { pair in
            // The watch is not running: everything stays outstanding at the phone.
            try await pair.startReady(.phone)
            let a = try await pair.transfer(#"{"n":1}"#)
            let b = try await pair.transfer(#"{"n":2}"#)
            let c = try await pair.transfer(#"{"n":3}"#)

            let list = try await pair.ok(["--json", "transfers"])
            #expect(list.json.compactMap { $0["transferId"]?.stringValue } == [a, b, c], "\(list)")
            #expect(list.json.allSatisfy { $0["isTransferring"] == .bool(true) && $0["createdAt"]?.stringValue != nil }, "\(list)")
            #expect(list.json.compactMap { $0["userInfo"]?["n"]?.integerValue } == [1, 2, 3])
            let text = try await pair.ok(["transfers"])
            #expect(text.stdout.count == 3 && text.stdout[1].hasPrefix(b), "\(text)")

            let cancel = try await pair.ok(["transfers", "cancel", b])
            #expect(cancel.stdout == ["cancelled \(b)"], "\(cancel)")
            let again = try await pair.ok(["--json", "transfers", "cancel", b])
            #expect(again.object == .object(["cancelled": .bool(false), "transferId": .string(b)]), "\(again)")
            let after = try await pair.ok(["--json", "transfers"])
            #expect(after.json.compactMap { $0["transferId"]?.stringValue } == [a, c], "\(after)")

            // Once the watch runs, only the two that were not cancelled arrive.
            try await pair.startReady(.watch)
            try await pair.ok(["wait", "drained", "--timeout", "20"])
            let received = try await pair.receivePending(.watch, channels: ["userInfo"])
            #expect(received.compactMap { $0["transferId"]?.stringValue } == [a, c], "\(received)")
            let empty = try await pair.ok(["transfers"])
            #expect(empty.stdout == ["no outstanding transfers"], "\(empty)")
        }
    }

    @Test("context: set, identical set not re-sent, get, get --received on the peer, {} clears")
    func applicationContext() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let app = try pair.startWcctl(["receive", "--follow", "--channel", "applicationContext"], side: .watch)

            let first = try await pair.ok(["--json", "context", "set", #"{"theme":"dark","n":1}"#])
            #expect(first.object == .object(["changed": .bool(true), "version": .integer(1)]), "\(first)")
            let same = try await pair.ok(["--json", "context", "set", #"{"n":1,"theme":"dark"}"#])
            #expect(same.object == .object(["changed": .bool(false), "version": .integer(1)]), "\(same)")
            let text = try await pair.ok(["context", "set", #"{"n":1,"theme":"dark"}"#])
            #expect(text.stdout.first?.hasPrefix("version 1 (unchanged") == true, "\(text)")
            let get = try await pair.ok(["context", "get"])
            #expect(get.stdout == [#"{"n":1,"theme":"dark"}"#], "\(get)")

            // The watch app sees it arrive, once.
            #expect(await app.stdout.wait(timeout: .seconds(20)) { !$0.isEmpty }, "\(pair.diagnostics())")
            #expect(app.stdout.lines.first.flatMap(JSONValue.from) == .object([
                "channel": .string("applicationContext"), "version": .integer(1),
                "context": .object(["n": .integer(1), "theme": .string("dark")]),
            ]), "\(app.stdout.lines)")
            let received = try await pair.ok(["--json", "context", "get", "--received"], side: .watch)
            #expect(received.object == .object(["context": .object(["n": .integer(1), "theme": .string("dark")]), "version": .integer(1)]), "\(received)")
            // The watch has sent nothing itself.
            let ownWatch = try await pair.ok(["context", "get"], side: .watch)
            #expect(ownWatch.stdout == ["{}"], "\(ownWatch)")

            // A newer value replaces it; {} clears it.
            try await pair.ok(["context", "set", #"{"theme":"light"}"#])
            try await pair.ok(["context", "set", "{}"])
            #expect(await app.stdout.wait(timeout: .seconds(20)) { $0.last.flatMap(JSONValue.from)?["version"] == .integer(3) }, "\(app.stdout.lines)")
            #expect(app.stdout.lines.last.flatMap(JSONValue.from)?["context"] == .object([:]), "\(app.stdout.lines)")
            let cleared = try await pair.ok(["context", "get", "--received"], side: .watch)
            #expect(cleared.stdout == ["{}"], "\(cleared)")
            let versions = app.stdout.lines.compactMap { JSONValue.from($0)?["version"]?.integerValue }
            #expect(versions == versions.sorted() && Set(versions).count == versions.count, "versions only move forward: \(versions)")
        }
    }
}
