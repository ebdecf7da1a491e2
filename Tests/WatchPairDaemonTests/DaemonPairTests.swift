import Foundation
import Logging
import Synchronization
import Systemd
import Testing
import WatchPairControlClient
import WatchPairCore
import WatchPairTesting
import WatchPairWire

@testable import WatchPairDaemon
@testable import WatchPairHost

/// Two daemons built with `buildDaemon`, on real Unix sockets in a short temporary directory, driven
/// over their control sockets.
@Suite("Daemon pair over real sockets", .timeLimit(.minutes(3)))
struct DaemonPairTests {
    struct Pair {
        let directory: String
        let phone: Daemon
        let watch: Daemon
        let phoneEvents: EventCollector
        let watchEvents: EventCollector
        var phoneControl: String { phone.configuration.paths.control }
        var watchControl: String { watch.configuration.paths.control }
    }

    /// Builds and runs both daemons around `body`, then shuts them down gracefully.
    func withDaemonPair(_ body: (Pair) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        let phoneEvents = EventCollector()
        let watchEvents = EventCollector()
        func build(_ role: Role, _ events: EventCollector) async throws -> Daemon {
            try await buildDaemon(
                configuration: testConfiguration(role, in: directory.path), logger: quietLogger,
                environment: DaemonEnvironment(listenFileDescriptors: ListenFileDescriptors([]), eventWriter: events.writer))
        }
        let phone = try await build(.phone, phoneEvents)
        let watch = try await build(.watch, watchEvents)
        let pair = Pair(directory: directory.path, phone: phone, watch: watch, phoneEvents: phoneEvents, watchEvents: watchEvents)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await phone.run(handlingSignals: false) }
            group.addTask { try await watch.run(handlingSignals: false) }
            do {
                try await body(pair)
            } catch {
                await phone.shutdown()
                await watch.shutdown()
                try? await group.waitForAll()
                throw error
            }
            await phone.shutdown()
            await watch.shutdown()
            try await group.waitForAll()
        }
        // Graceful shutdown removed every socket this pair bound.
        for name in ["phoned.ctl", "watchd.ctl", "phoned.sock", "watchd.sock"] {
            #expect(!FileManager.default.fileExists(atPath: "\(directory.path)/\(name)"), "\(name) left behind")
        }
    }

    /// Waits until `engine`'s status satisfies `condition` (woken by its state signal, no polling).
    func waitUntil(_ engine: PairEngine, _ condition: (EngineStatus) -> Bool) async {
        await waitForStatus(of: engine, wokenBy: engine.stateSignal, condition)
    }

    @Test func statusTransferReceiveContextAndMessages() async throws {
        try await withDaemonPair { pair in
            try await AsyncControlClientConnection.withConnection(to: pair.watchControl) { watchApp in
                try await AsyncControlClientConnection.withConnection(to: pair.phoneControl) { phoneApp in
                    // status
                    let status = try await phoneApp.call(["id": 1, "op": "status"])
                    #expect(status["ok"] == .bool(true))
                    #expect(status["result"]?["role"] == .string("phone"))
                    #expect(status["result"]?["pair"] == .string("default"), "the default pair, as WC_PAIR names it")
                    #expect(status["result"]?["launch"] == .string("foreground"))
                    #expect(status["result"]?["pid"] == .integer(Int64(getpid())))
                    #expect(status["result"]?["controlClients"]?.integerValue ?? 0 >= 1)

                    // The watch app acts as the message handler for replies.
                    let follow = try await watchApp.call(["id": 10, "op": "receive", "follow": true, "handle": ["dictionaryWithReply"]])
                    #expect(follow["ok"] == .bool(true))
                    await waitUntil(pair.phone.engine) { $0.reachable }

                    // send: the handler sees it, answers, the sender gets the reply.
                    try await phoneApp.send(["id": 2, "op": "send", "message": ["q": "ping", "when": ["$date": "2024-05-01T12:00:00Z"]]])
                    let message = try await watchApp.event("message")
                    #expect(message["id"] == .integer(10))
                    #expect(message["data"]?["variant"] == .string("dictionaryWithReply"))
                    #expect(message["data"]?["message"]?["q"] == .string("ping"))
                    let token = try #require(message["data"]?["token"])
                    let answered = try await watchApp.call(["id": 11, "op": "answer", "token": token, "reply": ["a": "pong"]])
                    #expect(answered["ok"] == .bool(true))
                    let reply = try await phoneApp.response(to: 2).json
                    #expect(reply["result"]?["reply"] == .object(["a": .string("pong")]))

                    // A variant nobody handles: 7014 for the sender.
                    let unhandled = try await phoneApp.call(["id": 3, "op": "send", "message": ["x": 1], "noReply": true])
                    #expect(unhandled["error"]?["code"] == .integer(7014))

                    // transfer → received by the watch app → acknowledged → didFinish at the phone.
                    let transfer = try await phoneApp.call(["id": 4, "op": "transfer", "userInfo": ["n": 1, "f": 1.5]])
                    let transferId = try #require(transfer["result"]?["transferId"])
                    #expect(transfer["result"]?["isTransferring"] == .bool(true))
                    let received = try await watchApp.event("userInfo")
                    #expect(received["data"]?["userInfo"] == .object(["n": .integer(1), "f": .double(1.5)]))
                    #expect(received["data"]?["transferId"] == transferId)
                    let deliveryId = try #require(received["data"]?["deliveryId"])
                    #expect(try await watchApp.call(["id": 12, "op": "ack", "deliveryId": deliveryId])["ok"] == .bool(true))

                    let phoneFollow = try await phoneApp.call(["id": 5, "op": "receive", "follow": true, "channels": ["didFinish"]])
                    #expect(phoneFollow["ok"] == .bool(true))
                    let finished = try await phoneApp.event("didFinish")
                    #expect(finished["data"]?["transferId"] == transferId)
                    #expect(try await phoneApp.call(["id": 6, "op": "ack", "finished": [transferId]])["ok"] == .bool(true))
                    let transfers = try await phoneApp.call(["id": 7, "op": "transfers"])
                    #expect(transfers["result"]?["transfers"] == .array([]))

                    // contextSet → received by the watch; an identical update is not re-sent.
                    let set = try await phoneApp.call(["id": 8, "op": "contextSet", "context": ["mode": "dark"]])
                    #expect(set["result"] == .object(["version": .integer(1), "changed": .bool(true)]))
                    let again = try await phoneApp.call(["id": 9, "op": "contextSet", "context": ["mode": "dark"]])
                    #expect(again["result"] == .object(["version": .integer(1), "changed": .bool(false)]))
                    let context = try await watchApp.event("applicationContext")
                    #expect(context["data"] == .object(["version": .integer(1), "context": .object(["mode": .string("dark")])]))
                    let got = try await watchApp.call(["id": 13, "op": "contextGet", "received": true])
                    #expect(got["result"] == .object(["context": .object(["mode": .string("dark")]), "version": .integer(1)]))
                    #expect(try await watchApp.call(["id": 14, "op": "ack", "contextVersion": 1])["ok"] == .bool(true))

                    let watchStatus = try await watchApp.call(["id": 15, "op": "status"])
                    #expect(watchStatus["result"]?["inboxPending"] == .integer(0))
                    #expect(watchStatus["result"]?["contextReceivedVersion"] == .integer(1))
                }
            }
            #expect(pair.phoneEvents.all.contains { $0.kind == .foregroundLaunch })
            #expect(pair.watchEvents.all.contains { $0.kind == .userInfoDelivered })
        }
    }

    /// More notices than one page (256) wait unacknowledged: a following stream still shows every one,
    /// once, in seq order, and then only what finishes later.
    @Test func aFollowingStreamShowsEveryDidFinishOnceBeyondAPage() async throws {
        let total = ReceiveOperations.receivePageSize + 44
        try await withDaemonPair { pair in
            try await AsyncControlClientConnection.withConnection(to: pair.phoneControl) { phoneApp in
                let follow = try await phoneApp.call(["id": 1, "op": "receive", "follow": true, "channels": ["didFinish"]])
                #expect(follow["ok"] == .bool(true))
                var sent: [JSONValue] = []
                for index in 0..<total {
                    let response = try await phoneApp.call(["id": .integer(Int64(10 + index)), "op": "transfer", "userInfo": ["n": .integer(Int64(index))]])
                    sent.append(try #require(response["result"]?["transferId"]))
                }
                var shown: [JSONValue] = []
                var seqs: [Int64] = []
                for _ in 0..<total {
                    let notice = try await phoneApp.event("didFinish")
                    shown.append(notice["data"]?["transferId"] ?? .null)
                    seqs.append(notice["data"]?["seq"]?.integerValue ?? -1)
                }
                #expect(shown == sent)
                #expect(seqs == Array(1...Int64(total)))
                // Nothing was acknowledged; a later transfer shows only itself.
                let later = try await phoneApp.call(["id": 5, "op": "transfer", "userInfo": ["n": "later"]])
                let notice = try await phoneApp.event("didFinish")
                #expect(notice["data"]?["transferId"] == later["result"]?["transferId"])
            }
        }
    }

    /// The `receive` success means the handler is attached: a message sent the moment it arrives is
    /// handled, never 7014 (so clients need no retry). Repeated on fresh connections.
    @Test func aMessageRightAfterTheFollowSuccessFindsTheHandler() async throws {
        try await withDaemonPair { pair in
            try await AsyncControlClientConnection.withConnection(to: pair.phoneControl) { phoneApp in
                await waitUntil(pair.phone.engine) { $0.reachable }
                for round in 1...25 {
                    let id = Int64(round * 10)
                    try await AsyncControlClientConnection.withConnection(to: pair.watchControl) { watchApp in
                        // Pipelined: the send goes out as soon as the follow's success is read.
                        let follow = try await watchApp.call(["id": .integer(id), "op": "receive", "follow": true, "channels": ["message"], "handle": ["dictionary"]])
                        #expect(follow["ok"] == .bool(true))
                        let sent = try await phoneApp.call(["id": .integer(id + 1), "op": "send", "message": ["round": .integer(Int64(round))], "noReply": true])
                        #expect(sent["ok"] == .bool(true), "round \(round): \(sent)")
                        let message = try await watchApp.event("message")
                        #expect(message["data"]?["message"]?["round"] == .integer(Int64(round)))
                    }
                }
            }
        }
    }

    /// A control handler for the watch daemon of `pair`, with a router of its own.
    func watchHandler(_ pair: Pair) -> (ControlRouter, MessageRouter) {
        let context = HostContext(
            engine: pair.watch.engine, store: pair.watch.store, events: EventLog(), clock: ContinuousClock(), pid: 1,
            clientCount: { 0 })
        let router = MessageRouter(channels: context.channels, clock: ContinuousClock())
        // The layer is never started here (no `request`/`serve`), so its directory is not touched.
        let connection = AppConnection(
            context: context, router: router, storageDirectory: NSTemporaryDirectory(), logger: Logger(label: "test"))
        return (DaemonOperations.router(context: context, router: router, connection: connection), router)
    }

    /// Serves `request` on `connection` as the control server does, on the loop of `pair`'s watch.
    func perform(_ request: ControlRequest, with operations: ControlRouter, on connection: ControlConnection, _ pair: Pair) async throws {
        let routed = try operations.route(request.lineBytes.dropLast()).get()
        await routed.run(ControlCall(id: routed.id, connection: connection), on: pair.watch.engine)
    }

    /// The running daemon's router serves exactly the operations its request types name.
    @Test func theDaemonServesEveryRequestTypeOnce() async throws {
        try await withDaemonPair { pair in
            let (operations, _) = watchHandler(pair)
            #expect(operations.operations.sorted() == DaemonOperations.requestTypes.map { $0.name }.sorted())
        }
    }

    /// `receive --follow` attaches the message handler before it writes its success, so no message can
    /// fall between the two. Seen deterministically with a client that is already gone: the success
    /// cannot be written, and the handler was attached anyway (answering first would have returned
    /// before attaching). The connection's stop detaches it, as the control server does.
    @Test func followAttachesTheHandlerBeforeItAnswers() async throws {
        try await withDaemonPair { pair in
            let (handler, router) = watchHandler(pair)
            let gone = RecordingConnection(failsWrites: true)
            let connection = ControlConnection(id: 7, writer: ControlWriter(gone))
            var follow = ControlRequest(id: 1, op: "receive")
            follow.set("follow", true)
            follow.set("handle", ["dictionary"])
            try await perform(follow, with: handler, on: connection, pair)
            #expect(connection.writer.isBroken, "the success could not be written")
            #expect(router.handlerCount == 1, "the handler was attached before the success was written")
            await router.detach(clientId: connection.id)
            #expect(router.handlerCount == 0)
        }
    }

    /// A client that closes its sending side right after a following `receive` (`printf … | socat`)
    /// still gets the response, and leaves no handler behind.
    @Test func followOnAClosingConnectionAnswersAndDetaches() async throws {
        try await withDaemonPair { pair in
            let (handler, router) = watchHandler(pair)
            let sink = RecordingConnection(failsWrites: false)
            let connection = ControlConnection(id: 8, writer: ControlWriter(sink))
            connection.closing.fire()
            var follow = ControlRequest(id: 3, op: "receive")
            follow.set("follow", true)
            follow.set("handle", ["dictionary"])
            try await perform(follow, with: handler, on: connection, pair)
            let first = try #require(sink.written.first)
            #expect(try ControlResponse(line: first.dropLast()) == .success(3))
            #expect(router.handlerCount == 0)
        }
    }

    @Test func aHandlerThatLeavesFailsItsMessagesWith7014() async throws {
        try await withDaemonPair { pair in
            try await AsyncControlClientConnection.withConnection(to: pair.phoneControl) { phoneApp in
                try await AsyncControlClientConnection.withConnection(to: pair.watchControl) { watchApp in
                    _ = try await watchApp.call(["id": 1, "op": "receive", "follow": true, "handle": ["dictionaryWithReply"]])
                    await waitUntil(pair.phone.engine) { $0.reachable }
                    // A reply timeout far beyond the test, so only the handler's leaving can fail the message.
                    try await phoneApp.send(["id": 2, "op": "send", "message": ["q": 1], "timeout": 3600])
                    _ = try await watchApp.event("message")
                }
                // The watch app's connection is closed without answering.
                let failed = try await phoneApp.response(to: 2).json
                #expect(failed["error"]?["code"] == .integer(7014))
            }
        }
    }

    @Test func aBadClientDoesNotHarmOthers() async throws {
        try await withDaemonPair { pair in
            try await AsyncControlClientConnection.withConnection(to: pair.phoneControl) { good in
                try await AsyncControlClientConnection.withConnection(to: pair.phoneControl) { bad in
                    try await bad.write("this is not json\n")
                    let garbage = try await bad.anonymousResponse()
                    #expect(garbage["error"]?["code"] == .integer(7008))
                    // Still usable after a malformed line.
                    #expect(try await bad.call(["id": 1, "op": "status"])["ok"] == .bool(true))
                    #expect(try await good.call(["id": 1, "op": "status"])["ok"] == .bool(true))
                    // A line over 1 MiB: one error, then the daemon closes the connection.
                    try await bad.write(String(repeating: "x", count: ControlEnvelope.lineLimit + 10))
                    let oversize = try await bad.anonymousResponse()
                    #expect(oversize["error"]?["message"]?.canonicalText.contains("longer than") == true)
                    _ = try await bad.readToEnd()  // Returns once the daemon has closed the connection.
                }
                #expect(try await good.call(["id": 2, "op": "events"])["ok"] == .bool(true))
            }
        }
    }

    /// A background launch exits by itself once idle; the timer runs on a manual clock.
    @Test func backgroundLaunchExitsWhenIdle() async throws {
        let directory = try TemporaryDirectory()
        var configuration = testConfiguration(.watch, in: directory.path)
        configuration.launch = .background
        configuration.keepAlive.interval = nil
        let clock = ManualClock()
        let events = EventCollector()
        let daemon = try await buildDaemon(
            configuration: configuration, logger: quietLogger,
            environment: DaemonEnvironment(clock: clock, listenFileDescriptors: ListenFileDescriptors([]), eventWriter: events.writer))
        #expect(daemon.launch == .background)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await daemon.run(handlingSignals: false) }
            await events.wait(for: .backgroundLaunch)
            // The idle monitor is the only sleeper on this clock: wait for it, then let the time pass.
            await clock.waitForSleepers(count: 1)
            clock.advance(by: configuration.timeouts.idleExit)
            try await group.waitForAll()
        }
        #expect(events.all.contains { $0.kind == .idleExit })
        #expect(!FileManager.default.fileExists(atPath: configuration.paths.control))
    }

    @Test func aSecondDaemonOnTheSameSocketsIsRefused() async throws {
        try await withDaemonPair { pair in
            let error = await #expect(throws: DaemonError.self) {
                var configuration = pair.phone.configuration
                configuration.paths.state = pair.directory + "/other"
                _ = try await buildDaemon(
                    configuration: configuration, logger: quietLogger,
                    environment: DaemonEnvironment(listenFileDescriptors: ListenFileDescriptors([]), eventWriter: .discard))
            }
            #expect(error?.kind == .listen)
            #expect(error?.message.contains("another process listens") == true)
            // The running daemon is untouched.
            try await AsyncControlClientConnection.withConnection(to: pair.phoneControl) { client in
                let status = try await client.call(["id": 1, "op": "status"])
                #expect(status["ok"] == .bool(true))
            }
        }
    }
}

/// A control client's connection that records what is written to it, or fails every write (a client
/// that is already gone).
final class RecordingConnection: TransportConnection {
    let failsWrites: Bool
    private let lines = Mutex<[[UInt8]]>([])

    init(failsWrites: Bool) {
        self.failsWrites = failsWrites
    }

    /// Every write, in order.
    var written: [[UInt8]] { lines.withLock { $0 } }

    var inbound: AsyncThrowingStream<[UInt8], any Error> { AsyncThrowingStream { $0.finish() } }

    func write(_ bytes: [UInt8]) async throws {
        if failsWrites { throw TransportError(.connectionClosed, "the client is gone") }
        lines.withLock { $0.append(bytes) }
    }

    func close() async {}

    var description: String { "recording connection" }
}
