import Foundation
import Glibc
import Testing
import WatchPairWire

@testable import WatchPairCLI

/// `wcctl` against a fake control server on a real Unix socket: the requests it writes, what it prints,
/// and its exit status.
@Suite("Client end to end")
struct ClientEndToEndTests {
    /// Every field a daemon's `status` has (docs/ControlProtocol.md), in no particular order.
    static let status = json("""
        {"role":"phone","activated":true,"launch":"foreground","reachable":false,"paired":true,
         "peerInstalled":true,"peerListening":true,"installed":true,"peerComplicationEnabled":true,
         "complicationEnabled":false,"complicationTransfersRemaining":50,"peerUnitFileState":null,
         "peerRunning":false,"link":"idle","peerLaunch":null,"outstandingTransfers":1,"inboxPending":0,
         "messagesInFlight":0,"contextSentVersion":2,"contextAckedVersion":2,"contextReceivedVersion":0,
         "outstandingFiles":0,"receivingFile":false,"pid":4242,"controlClients":1,"storeCommits":17,
         "storeReads":3}
        """)

    /// `wcctl status` for people: grouped, the store's counters left out.
    static let statusText = """
        app
          role:                           phone
          activated:                      true
          launch:                         foreground
          installed:                      true
          pid:                            4242
          controlClients:                 1
          complicationEnabled:            false
          complicationTransfersRemaining: 50
        peer
          reachable:                      false
          link:                           idle
          paired:                         true
          peerInstalled:                  true
          peerListening:                  true
          peerUnitFileState:              none
          peerRunning:                    false
          peerLaunch:                     none
          peerComplicationEnabled:        true
        queues
          outstandingTransfers:           1
          outstandingFiles:               0
          receivingFile:                  false
          inboxPending:                   0
          messagesInFlight:               0
        context
          contextSentVersion:             2
          contextAckedVersion:            2
          contextReceivedVersion:         0

        """

    /// `wcctl status --counters`: the same, then the counters.
    static let statusTextWithCounters = statusText + """
        counters
          storeCommits:                   17
          storeReads:                     3

        """

    /// `--json`: every field, with or without `--counters`, as before `--counters` existed.
    static let statusJSONLine = """
        {"activated":true,"complicationEnabled":false,"complicationTransfersRemaining":50,\
        "contextAckedVersion":2,"contextReceivedVersion":0,"contextSentVersion":2,"controlClients":1,\
        "inboxPending":0,"installed":true,"launch":"foreground","link":"idle","messagesInFlight":0,\
        "outstandingFiles":0,"outstandingTransfers":1,"paired":true,"peerComplicationEnabled":true,\
        "peerInstalled":true,"peerLaunch":null,"peerListening":true,"peerRunning":false,\
        "peerUnitFileState":null,"pid":4242,"reachable":false,"receivingFile":false,"role":"phone",\
        "storeCommits":17,"storeReads":3}

        """

    @Test(arguments: [
        (["status"], statusText),
        (["status", "--counters"], statusTextWithCounters),
        (["--json", "status"], statusJSONLine),
        (["--json", "status", "--counters"], statusJSONLine),
    ])
    func statusForPeopleAndForScripts(arguments: [String], expected: String) throws {
        try withServer({ request in [Reply.ok(request, Self.status)] }) { server in
            let result = runWcctl(arguments, server: server)
            #expect(result.status == 0)
            #expect(result.err.isEmpty)
            #expect(result.out == expected)
            #expect(server.requests.map(\.canonicalText) == [#"{"id":1,"op":"status"}"#])
        }
    }

    @Test func notRunningWhenThereIsNoSocket() {
        let dir = makeTempDirectory()
        defer { rmdir(dir) }
        let result = runWcctl(["--side", "watch", "status"], environment: ["WCCTL_RUNTIME_DIR": dir])
        #expect(result.status == 3)
        #expect(result.err == "wcctl: watchd is not running (no control socket at \(dir)/watchd.ctl)\n")
        #expect(result.out.isEmpty)
    }

    @Test func notRunningWhenNobodyListens() throws {
        // A socket file left behind by a dead daemon: bound, never listening.
        let dir = makeTempDirectory()
        let path = dir + "/phoned.ctl"
        defer {
            unlink(path)
            rmdir(dir)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let rc = UnixSocketAddress(path: path)?.withSockaddr { bind(fd, $0, $1) }
        #expect(rc == 0)
        close(fd)
        let result = runWcctl(["status"], environment: ["WCCTL_CONTROL": path])
        #expect(result.status == 3)
        #expect(result.err.hasPrefix("wcctl: phoned is not running"))
    }

    @Test func sendPrintsTheReplyAndSendsTheMessage() throws {
        try withServer({ request in [Reply.ok(request, json(#"{"reply":{"pong":1,"at":{"$date":"2024-05-01T12:00:00.000Z"}}}"#))] }) {
            server in
            let result = runWcctl(["send", #"{"ping":1,"raw":{"$data":"AAE="},"f":1.0}"#, "--timeout", "2.5"], server: server)
            #expect(result.status == 0)
            #expect(result.out == #"{"at":{"$date":"2024-05-01T12:00:00.000Z"},"pong":1}"# + "\n")
            #expect(server.requests.map(shape) == [#"{"message":{"f":1.0,"ping":1,"raw":{"$data":"AAE="}},"op":"send","timeout":2.5}"#])
        }
    }

    @Test func sendWithoutReplyPrintsNothingOrAnEmptyObject() throws {
        try withServer({ request in [Reply.ok(request)] }) { server in
            let result = runWcctl(["send", "--no-reply", "{}"], server: server)
            #expect(result.status == 0 && result.out.isEmpty)
            #expect(server.requests.map(shape) == [#"{"message":{},"noReply":true,"op":"send"}"#])
        }
        try withServer({ request in [Reply.ok(request)] }) { server in
            #expect(runWcctl(["--json", "send", "--no-reply", "{}"], server: server).out == "{}\n")
        }
    }

    @Test(arguments: [
        (7007, "notReachable", Int32(107)), (7012, "messageReplyTimedOut", Int32(112)), (7014, "deliveryFailed", Int32(114)),
        (7099, "somethingNew", Int32(199)),
    ])
    func daemonErrorsBecomeExitStatuses(code: Int, name: String, status: Int32) throws {
        try withServer({ request in [Reply.failure(request, code, name, "It failed.")] }) { server in
            let result = runWcctl(["send", "{}"], server: server)
            #expect(result.status == status)
            #expect(result.err == "wcctl: error \(code) (\(name)): It failed.\n")
            #expect(result.out.isEmpty)
        }
    }

    @Test func anInvalidPayloadFailsBeforeConnecting() {
        let result = runWcctl(["transfer", #"{"a":"#], environment: ["WCCTL_CONTROL": "/nonexistent/ctl"])
        #expect(result.status == 108)
        #expect(result.err.hasPrefix("wcctl: error 7008 (invalidParameter): userInfo: Invalid JSON"))
        #expect(runWcctl(["context", "set", #"{"a":[null]}"#]).status == 110)
    }

    @Test func theDaemonClosingMidRequestIsNotRunning() throws {
        try withServer({ _ in [.close] }) { server in
            let result = runWcctl(["send", "{}"], server: server)
            #expect(result.status == 3)
            #expect(result.err == "wcctl: phoned closed the control connection (it stopped or crashed)\n")
        }
    }

    @Test func aResponseSplitAcrossWritesAndMergedWithOtherLinesIsRead() throws {
        try withServer({ request in
            let line = Array(JSONValue.object(["id": .integer(Reply.id(request)), "ok": .bool(true), "result": .object(["transferId": .string("T-9"), "seq": .integer(9)])]).canonicalText.utf8)
            // A stray event for another id first, merged into the same write as the first half.
            let stray = Array(#"{"id":77,"event":"diagnostic","data":{}}"#.utf8) + [10]
            return [.bytes(stray + line[..<10]), .bytes(Array(line[10...]) + [10])]
        }) { server in
            let result = runWcctl(["transfer", #"{"n":1}"#], server: server)
            #expect(result.status == 0)
            #expect(result.out == "T-9\n")
            #expect(server.requests.map(shape) == [#"{"op":"transfer","userInfo":{"n":1}}"#])
        }
    }

    @Test func anErrorWithoutIdAnswersTheRequestInFlight() throws {
        let line = #"{"id":null,"ok":false,"error":{"code":7008,"name":"invalidParameter","message":"Line is not JSON."}}"#
        try withServer({ _ in [.line(line)] }) { server in
            let result = runWcctl(["status"], server: server)
            #expect(result.status == 108)
            #expect(result.err == "wcctl: error 7008 (invalidParameter): Line is not JSON.\n")
        }
    }

    @Test func garbageFromTheDaemonIsAFailure() throws {
        try withServer({ _ in [.line("hello")] }) { server in
            let result = runWcctl(["status"], server: server)
            #expect(result.status == 1)
            #expect(result.err.hasPrefix("wcctl: phoned sent an invalid line: "))
        }
    }

    @Test func aResponseOverTheLineLimitIsAFailure() throws {
        try withServer({ request in [Reply.ok(request, .object(["pad": .string(String(repeating: "x", count: 5000))]))] }) { server in
            let client = try ControlClient.connect(to: ControlTarget(role: .phone, path: server.path), maxResponseLineBytes: 1024)
            #expect(throws: CLIError(.failure, "phoned sent a line over 1024 bytes")) {
                _ = try client.call(client.makeRequest("status"), wait: .seconds(10))
            }
        }
    }

    @Test func sendDataReadsAFileAndWritesRawReplyBytes() throws {
        let dir = makeTempDirectory()
        let file = dir + "/msg.bin"
        defer {
            unlink(file)
            rmdir(dir)
        }
        try Data([0, 1, 2, 255]).write(to: URL(fileURLWithPath: file))
        let handler: FakeControlServer.Handler = { request in [Reply.ok(request, .object(["reply": .string("/wA=")]))] }
        try withServer(handler) { server in
            let result = runWcctl(["send-data", file], server: server)
            #expect(result.status == 0)
            #expect(result.outBytes == [0xFF, 0x00])
            #expect(server.requests.map(shape) == [#"{"data":"AAEC/w==","op":"sendData"}"#])
        }
        try withServer(handler) { server in
            let result = runWcctl(["--json", "send-data", file], server: server)
            #expect(result.out == #"{"reply":{"$data":"/wA="}}"# + "\n")
        }
        let missing = runWcctl(["send-data", dir + "/nope"], environment: ["WCCTL_CONTROL": "/nonexistent/ctl"])
        #expect(missing.status == 1)
        #expect(missing.err == "wcctl: cannot open \(dir)/nope: No such file or directory\n")
    }

    @Test func sendDataReadsStandardInput() throws {
        // A pipe of our own, each end closed exactly once: closing an end a second time (as a deinit would)
        // can close another concurrent test's descriptor that reused the number.
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        _ = write(ends[1], "hi", 2)
        close(ends[1])
        try withServer({ request in [Reply.ok(request)] }) { server in
            let result = runWcctl(["send-data", "-", "--no-reply"], server: server, standardInput: ends[0])
            #expect(result.status == 0 && result.outBytes.isEmpty)
            #expect(server.requests.map(shape) == [#"{"data":"aGk=","noReply":true,"op":"sendData"}"#])
        }
    }

    @Test func transfersCancelAndContext() throws {
        let handler: FakeControlServer.Handler = { request in
            switch request[field: "op"] {
            case .string("transfers")?:
                return [Reply.ok(request, json(#"{"transfers":[{"transferId":"A","seq":1,"userInfo":{"k":1},"isTransferring":true,"createdAt":"2024-05-01T12:00:00.000Z"},{"transferId":"B","seq":2,"userInfo":{},"isTransferring":true,"createdAt":"2024-05-01T12:00:01.000Z"}]}"#))]
            case .string("cancel")?: return [Reply.ok(request, json(#"{"cancelled":false}"#))]
            case .string("contextSet")?: return [Reply.ok(request, json(#"{"version":5,"changed":false}"#))]
            default: return [Reply.ok(request, json(#"{"context":{"theme":"dark"},"version":5}"#))]
            }
        }
        let cases: [([String], String, String)] = [
            (["transfers"], #"{"op":"transfers"}"#, "A  seq 1  2024-05-01T12:00:00.000Z  {\"k\":1}\nB  seq 2  2024-05-01T12:00:01.000Z  {}\n"),
            (
                ["--json", "transfers"], #"{"op":"transfers"}"#,
                #"{"createdAt":"2024-05-01T12:00:00.000Z","isTransferring":true,"seq":1,"transferId":"A","userInfo":{"k":1}}"# + "\n"
                    + #"{"createdAt":"2024-05-01T12:00:01.000Z","isTransferring":true,"seq":2,"transferId":"B","userInfo":{}}"# + "\n"
            ),
            (["transfers", "cancel", "A"], #"{"op":"cancel","transferId":"A"}"#, "A is not outstanding (already received, or cancelled before)\n"),
            (["--json", "transfers", "cancel", "A"], #"{"op":"cancel","transferId":"A"}"#, #"{"cancelled":false,"transferId":"A"}"# + "\n"),
            (["context", "set", #"{"theme":"dark"}"#], #"{"context":{"theme":"dark"},"op":"contextSet"}"#, "version 5 (unchanged: identical to the last context sent, not re-sent)\n"),
            (["context", "get", "--received"], #"{"op":"contextGet","received":true}"#, #"{"theme":"dark"}"# + "\n"),
            (["--json", "context", "get"], #"{"op":"contextGet","received":false}"#, #"{"context":{"theme":"dark"},"version":5}"# + "\n"),
        ]
        for (arguments, request, output) in cases {
            try withServer(handler) { server in
                let result = runWcctl(arguments, server: server)
                #expect(result.status == 0, "\(arguments)")
                #expect(result.out == output, "\(arguments)")
                #expect(server.requests.map(shape) == [request], "\(arguments)")
            }
        }
    }
}
