import Foundation
import Testing
import WatchConnection
import WatchConnectionTesting

/// The same bodies over `FlakySession`s and over WatchPair's in-memory `WCSession` pair.
@MainActor
@Suite("WatchConnection over both links", .timeLimit(.minutes(3)))
struct WatchConnectionLinkTests {
    @Test("a typed request gets its typed response; the handler runs once", arguments: LinkMode.allCases)
    func roundTrip(mode: LinkMode) async throws {
        let link = try await TestLink(mode)
        let runs = Counter()
        link.watch.registerGreeter(runs)
        let response = try await link.phone.send(Greet(name: "Ada"))
        #expect(response == Greeting(text: "Hello, Ada"))
        #expect(runs.count == 1)
        await link.stop()
    }

    @Test("events are logged through swift-log with their journal names and fields", arguments: LinkMode.allCases)
    func logged(mode: LinkMode) async throws {
        let link = try await TestLink(mode)
        link.watch.registerGreeter(Counter())
        _ = try await link.phone.send(Greet(name: "Ada"))
        let events = link.phoneLog.entries.map { $0.metadata["WC_EVENT"]?.description }
        #expect(events.contains("sessionActivated"))
        let sent = try #require(link.phoneLog.entries.first { $0.metadata["WC_EVENT"] == "requestSent" })
        #expect(sent.metadata["WC_REQUEST_TYPE"] == "Greet")
        #expect(sent.metadata["WC_DURATION_US"] != nil)
        await link.stop()
    }

    @Test("an unknown request type answers an error naming the type", arguments: LinkMode.allCases)
    func unknownType(mode: LinkMode) async throws {
        let link = try await TestLink(mode)
        await #expect(throws: WatchConnectionError.handlerNotRegistered(requestType: "Unhandled")) {
            try await link.phone.send(Unhandled(), retryPolicy: .patient)
        }
        await link.stop()
    }

    @Test("a request over the size limit is 7009 before anything is sent", arguments: LinkMode.allCases)
    func oversize(mode: LinkMode) async throws {
        let link = try await TestLink(mode)
        let runs = Counter()
        link.watch.register(Blob.self) { _ in
            runs.increment()
            return Greeting(text: "")
        }
        let error = await #expect(throws: WatchConnectionError.self) {
            try await link.phone.send(Blob(bytes: String(repeating: "x", count: 70_000)))
        }
        #expect(error?.code == 7009)
        if case .payloadTooLarge(let size, let limit)? = error { #expect(size > limit && limit == 65_536) } else { Issue.record("\(String(describing: error))") }
        #expect(link.flaky?.phone.history.isEmpty ?? true)
        #expect(runs.count == 0)
        await link.stop()
    }

    @Test("userInfoOnly: the request and its response both cross as userInfo", arguments: LinkMode.allCases)
    func userInfoOnly(mode: LinkMode) async throws {
        let link = try await TestLink(mode)
        let runs = Counter()
        link.watch.registerGreeter(runs)
        let response = try await link.phone.send(Greet(name: "Grace"), strategy: .userInfoOnly)
        #expect(response.text == "Hello, Grace")
        #expect(runs.count == 1)
        #expect(link.flaky?.phone.history.isEmpty ?? true)  // no live message was used
        await link.stop()
    }

    @Test("a fire-and-forget request reaches its handler", arguments: LinkMode.allCases)
    func fireAndForget(mode: LinkMode) async throws {
        let link = try await TestLink(mode)
        let (notes, received) = AsyncStream.makeStream(of: String.self)
        link.watch.register(Ping.self) { ping in
            received.yield(ping.note)
            return VoidResponse()
        }
        await link.phone.send(Ping(note: "tick"))
        var iterator = notes.makeAsyncIterator()
        #expect(await iterator.next() == "tick")
        await link.stop()
    }

    @Test("connectionState yields the current status first", arguments: LinkMode.allCases)
    func connectionState(mode: LinkMode) async throws {
        let link = try await TestLink(mode)
        var statuses = link.phone.connectionState.makeAsyncIterator()
        let status = await statuses.next()
        #expect(status?.isActivated == true && status?.canSendMessages == true && status?.canUseBackgroundTransfers == true)
        #expect(link.phone.currentConnectionStatus == status)
        #expect(link.phone.isReachable && link.phone.activationState == .activated)
        await link.stop()
    }
}
