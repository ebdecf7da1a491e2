import Foundation
import Synchronization
import Testing
import WatchConnection
import WatchConnectionTesting
import WatchPairTesting

/// The receiving side spoken to in the raw wire form, as a program in any language would.
@MainActor
@Suite("WatchConnection receiver, raw wire form", .timeLimit(.minutes(3)))
struct WatchConnectionReceiverTests {
    /// Sends `envelope` as a live message on `session`; returns the reply's envelope.
    func exchange(_ session: FlakySession, _ envelope: String) async -> String? {
        await withCheckedContinuation { continuation in
            session.sendMessage(
                [WireEnvelope.key: envelope],
                replyHandler: { continuation.resume(returning: $0[WireEnvelope.key]) },
                errorHandler: { _ in continuation.resume(returning: nil) })
        }
    }

    @Test("a repeat arriving while the first run is going waits for it: one run, the same answer twice")
    func repeatWhileRunning() async throws {
        let session = FlakySession()
        let connection = WatchConnection(session: session)
        let runs = Counter()
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let (started, announce) = AsyncStream.makeStream(of: Void.self)
        connection.register(Greet.self) { request in
            runs.increment()
            announce.yield()
            for await _ in gate { break }
            return Greeting(text: "slow \(request.name)")
        }
        try await connection.waitForActivation()
        let envelope = try WireEnvelope.encode(
            WireEnvelope.Header(kind: .request, id: UUID(), type: "Greet", reply: true), body: Greet(name: "Ada"))
        let original = Task { await exchange(session, envelope) }
        var starts = started.makeAsyncIterator()
        await starts.next()
        let events = connection.diagnosticEvents
        let second = Task { await exchange(session, envelope) }
        _ = await first(events) { if case .duplicateSuppressed = $0 { true } else { false } }
        open.yield()
        let answers = [await original.value, await second.value]
        #expect(runs.count == 1)
        #expect(answers[0] == answers[1])
        #expect(try WireEnvelope.body(of: try #require(answers[0]), as: Greeting.self).text == "slow Ada")
    }

    @Test("a live request for a type with no handler yet waits its turn on the main actor: the handler registered in the same turn, right after, runs it")
    func liveRequestBeforeRegistration() async throws {
        let session = FlakySession()
        let connection = WatchConnection(session: session)
        try await connection.waitForActivation()
        let runs = Counter()
        let envelope = try WireEnvelope.encode(
            WireEnvelope.Header(kind: .request, id: UUID(), type: "Greet", reply: true), body: Greet(name: "Ada"))
        let reply = await withCheckedContinuation { continuation in
            // Delivered at once (no latency) while no handler exists, as the request that launched an app
            // is; the app registers its handler in the same turn of the main actor.
            session.sendMessage(
                [WireEnvelope.key: envelope],
                replyHandler: { continuation.resume(returning: $0[WireEnvelope.key]) },
                errorHandler: { _ in continuation.resume(returning: nil) })
            connection.register(Greet.self) { request in
                runs.increment()
                return Greeting(text: "Hello, \(request.name)")
            }
        }
        let header = try WireEnvelope.header(of: try #require(reply))
        #expect(header.error == nil, "not refused with handlerNotRegistered")
        #expect(runs.count == 1)
    }

    @Test("a hand-written request of an unknown type is answered with an error naming the type")
    func unknownTypeRaw() async throws {
        let session = FlakySession()
        let connection = WatchConnection(session: session)
        try await connection.waitForActivation()
        let reply = try #require(await exchange(session, #"{"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","type":"Teleport","reply":true,"body":{}}"#))
        let header = try WireEnvelope.header(of: reply)
        #expect(header.kind == .response && header.type == "Teleport")
        #expect(header.error?.code == "handlerNotRegistered")
        #expect(header.error?.message.contains("'Teleport'") == true)
    }

    @Test("a body that does not decode as the registered type is answered decodingFailed")
    func badBody() async throws {
        let session = FlakySession()
        let connection = WatchConnection(session: session)
        connection.registerGreeter(Counter())
        try await connection.waitForActivation()
        let reply = try #require(await exchange(session, #"{"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","type":"Greet","reply":true,"body":{"nom":1}}"#))
        #expect(try WireEnvelope.header(of: reply).error?.code == "decodingFailed")
    }

    @Test("dictionaries without the layer's key are not the layer's: no answer, no run")
    func foreignMessage() async throws {
        let session = FlakySession()
        let connection = WatchConnection(session: session)
        let runs = Counter()
        connection.registerGreeter(runs)
        try await connection.waitForActivation()
        session.sendMessage(["hello": "world"], replyHandler: nil) { _ in }
        // A known request after it is answered: the foreign one was skipped, not stuck in front of it.
        #expect(try await connection.send(Greet(name: "after")).text == "Hello, after")
        #expect(runs.count == 1)
    }

    @Test("the receiver's record survives its death: a repeat after a restart is answered, not run")
    func recordSurvivesRestart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = WatchConnectionConfiguration(storageDirectory: directory)
        let envelope = try WireEnvelope.encode(
            WireEnvelope.Header(kind: .request, id: UUID(), type: "Greet", reply: true), body: Greet(name: "Ada"))
        let runs = Counter()
        let session = FlakySession()
        let connection = WatchConnection(session: session, configuration: configuration)
        connection.registerGreeter(runs)
        try await connection.waitForActivation()
        let answered = try #require(await exchange(session, envelope))

        // What a process killed right after answering leaves: the files. A new process, the same retry.
        let restartedSession = FlakySession()
        let restarted = WatchConnection(session: restartedSession, configuration: configuration)
        restarted.registerGreeter(runs)
        try await restarted.waitForActivation()
        let events = restarted.diagnosticEvents
        #expect(await exchange(restartedSession, envelope) == answered)
        #expect(runs.count == 1)
        _ = await first(events) { if case .duplicateSuppressed = $0 { true } else { false } }
    }

    @Test("a request by userInfo before its handler registers is held, and runs once when it registers", arguments: LinkMode.allCases)
    func heldUntilRegistered(mode: LinkMode) async throws {
        let link = try await TestLink(mode)
        try await withTeardown { () async throws in
            let phone = link.phone
            let watchEvents = link.watch.diagnosticEvents
            let reply = Task { try await phone.send(Greet(name: "early"), strategy: .userInfoOnly) }
            _ = await first(watchEvents) { $0.name == "requestHeld" }
            #expect(link.watch.heldRequestCount == 1)
            let runs = Counter()
            link.watch.registerGreeter(runs)
            #expect(try await reply.value.text == "Hello, early")
            #expect(runs.count == 1)
            #expect(link.watch.heldRequestCount == 0)
        } teardown: {
            await link.stop()
        }
    }

    @Test("a live message of a type with no handler is refused at once, not held")
    func liveIsNotHeld() async throws {
        let session = FlakySession()
        let connection = WatchConnection(session: session)
        try await connection.waitForActivation()
        let reply = try #require(await exchange(session, #"{"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","type":"Greet","reply":true,"body":{"name":"x"}}"#))
        #expect(try WireEnvelope.header(of: reply).error?.code == "handlerNotRegistered")
        #expect(connection.heldRequestCount == 0)
    }

    @Test("held requests survive the app's death: a new process runs each once, in arrival order, when it registers")
    func heldSurvivesRestart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = WatchConnectionConfiguration(storageDirectory: directory)
        let session = FlakySession()
        let connection = WatchConnection(session: session, configuration: configuration)
        try await connection.waitForActivation()
        let events = connection.diagnosticEvents
        for name in ["one", "two"] {
            let header = WireEnvelope.Header(v: WireEnvelope.version, kind: .request, id: UUID(), type: "Greet", reply: false)
            try session.transferUserInfo([WireEnvelope.key: try WireEnvelope.encode(header, body: Greet(name: name))])
            _ = await first(events) { $0.name == "requestHeld" }
        }
        #expect(connection.heldRequestCount == 2)

        // What a process killed now leaves: the file. A new process on the same directory.
        let restarted = WatchConnection(session: FlakySession(), configuration: configuration)
        #expect(restarted.heldRequestCount == 2)
        var names = restarted.registerNameRecorder().makeAsyncIterator()
        #expect(await names.next() == "one")
        #expect(await names.next() == "two")
        #expect(restarted.heldRequestCount == 0)
        // Each leaves the file once its response is recorded; close() waits for both runs.
        await restarted.close()
        let reopened = WatchConnection(session: FlakySession(), configuration: configuration)
        #expect(reopened.heldRequestCount == 0, "answered requests left the file")
    }

    @Test("a durable request is on disk while its handler runs: a process killed mid-run runs it in the next one")
    func runningSurvivesRestart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = WatchConnectionConfiguration(storageDirectory: directory)
        let session = FlakySession()
        let connection = WatchConnection(session: session, configuration: configuration)
        let (started, announce) = AsyncStream.makeStream(of: Void.self)
        connection.register(Greet.self) { _ in
            announce.yield()
            // Never answers: the process "dies" while it runs.
            let never = AsyncStream<Void> { _ in }
            for await _ in never {}
            throw CancellationError()
        }
        try await connection.waitForActivation()
        let header = WireEnvelope.Header(v: WireEnvelope.version, kind: .request, id: UUID(), type: "Greet", reply: false)
        try session.transferUserInfo([WireEnvelope.key: try WireEnvelope.encode(header, body: Greet(name: "cut short"))])
        var starts = started.makeAsyncIterator()
        await starts.next()
        // What a host waits for before acknowledging the item to its transport.
        await connection.waitUntilSessionEventsHandled()

        let restarted = WatchConnection(session: FlakySession(), configuration: configuration)
        #expect(restarted.heldRequestCount == 1, "the running request was not on disk")
        var names = restarted.registerNameRecorder().makeAsyncIterator()
        #expect(await names.next() == "cut short")
        await connection.close()
    }

    @Test("an unreadable file of recorded responses is set aside and reported; requests still run")
    func corruptRecords() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("[".utf8).write(to: directory.appendingPathComponent("watchconnection-responses.json"))
        let session = FlakySession()
        let connection = WatchConnection(session: session, configuration: WatchConnectionConfiguration(storageDirectory: directory))
        let reported = await first(connection.diagnosticEvents) { if case .storageFileSetAside = $0 { true } else { false } }
        guard case .storageFileSetAside(let path, _)? = reported else {
            Issue.record("not reported")
            return
        }
        #expect(path.contains("watchconnection-responses.json.corrupt-"))
        connection.registerGreeter(Counter())
        #expect(try await connection.send(Greet(name: "still")).text == "Hello, still")
    }
}
