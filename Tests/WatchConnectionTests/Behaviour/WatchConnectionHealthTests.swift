import Foundation
import Testing
import WatchConnection
import WatchConnectionTesting
import WatchPairTesting

/// Health, suggestions and recovery through a connection, over `FlakySession`s on the manual clock.
@MainActor
@Suite("WatchConnection health and recovery", .timeLimit(.minutes(3)))
struct WatchConnectionHealthTests {
    @Test("failures in a row: degraded at 3, unhealthy at 10 (restartWatch suggested); a success heals")
    func healthThresholds() async throws {
        let link = try await TestLink(.flaky)
        let (phoneSession, _) = try #require(link.flaky)
        link.watch.registerGreeter(Counter())
        let events = link.phone.diagnosticEvents
        let suggestions = link.phone.recoverySuggestions
        phoneSession.script(Array(repeating: .fail(code: 7014), count: 10))
        for attempt in 1...10 {
            await #expect(throws: WatchConnectionError.self) {
                try await link.phone.send(Greet(name: "\(attempt)"), strategy: .messageOnly, retryPolicy: .none)
            }
            let expected: SessionHealth = attempt >= 10 ? .unhealthy : attempt >= 3 ? .degraded : .healthy
            #expect(link.phone.sessionHealth == expected, "after \(attempt) failures")
        }
        #expect(link.phone.sessionHealth.requiresUserIntervention)
        var iterator = suggestions.makeAsyncIterator()
        #expect(await iterator.next() == .restartWatch)
        _ = try await link.phone.send(Greet(name: "ok"), retryPolicy: .none)
        #expect(link.phone.sessionHealth == .healthy)
        var changes: [DiagnosticEvent] = []
        for await event in events {
            if case .healthChanged = event { changes.append(event) }
            if changes.count == 3 { break }
        }
        #expect(changes == [
            .healthChanged(from: .healthy, to: .degraded), .healthChanged(from: .degraded, to: .unhealthy),
            .healthChanged(from: .unhealthy, to: .healthy),
        ])
    }

    @Test("requests that fail before any attempt (immediate mode, peer unreachable) count: degraded at 3; device off or not running",
          arguments: [(false, RecoverySuggestion.checkBluetoothEnabled), (true, .openCompanionApp), (nil, .openCompanionApp)] as [(Bool?, RecoverySuggestion)])
    func failuresBeforeAnAttemptCount(deviceOn: Bool?, suggestion: RecoverySuggestion) async throws {
        let link = try await TestLink(.flaky)
        try await link.makePeerUnreachable()
        // Off: nothing listens for the watch. On: its app is installed but not running. nil: cannot tell.
        try #require(link.flaky).phone.setCounterpartDeviceOn(deviceOn)
        let suggestions = link.phone.recoverySuggestions
        for request in 1...3 {
            await #expect(throws: WatchConnectionError.notReachable) {
                try await link.phone.send(Greet(name: "\(request)"), strategy: .messageOnly, delivery: .immediate, retryPolicy: .none)
            }
            #expect(link.phone.sessionHealth == (request >= 3 ? .degraded : .healthy), "after \(request) failed requests")
        }
        #expect(link.flaky?.phone.history.isEmpty == true, "nothing was sent")
        // One suggestion for the three failures (the dedupe window), and no other.
        await link.phone.close()
        var made: [RecoverySuggestion] = []
        for await each in suggestions { made.append(each) }
        #expect(made == [suggestion])
    }

    @Test("over WatchPair's WCSession: a phone app gone with nothing listening is off (checkBluetoothEnabled); with its socket left listening, not running (openCompanionApp)",
          arguments: [(false, RecoverySuggestion.checkBluetoothEnabled), (true, .openCompanionApp)])
    func deviceOffOverWCSession(socketStays: Bool, suggestion: RecoverySuggestion) async throws {
        let link = try await TestLink(.wcSessionInMemory)
        let pair = try #require(link.pair)
        let network = try #require(pair.network)
        // The phone's socket unit: left listening (installed, not running), or gone with the app (device off).
        network.setInstalled(.phone, socketStays)
        let suggestions = link.watch.recoverySuggestions
        await pair.phone.shutdown()
        if !socketStays { await link.watch.waitForStatus { !$0.isReachable } }
        await #expect(throws: WatchConnectionError.self) {
            try await link.watch.send(Greet(name: "x"), strategy: .messageOnly, delivery: .immediate, retryPolicy: .none)
        }
        var iterator = suggestions.makeAsyncIterator()
        #expect(await iterator.next() == suggestion)
        await link.stop()
    }

    @Test("a request counts once however many attempts it made: two requests of 3 failed attempts stay healthy, a third degrades")
    func retriesCountOnce() async throws {
        let (link, phoneSession, _) = try await TestLink.flakyGreeter()
        phoneSession.script(Array(repeating: .fail(code: 7014), count: 9))
        let policy = RetryPolicy(maxAttempts: 3, backoff: .fixed(.zero))
        for request in 1...3 {
            await #expect(throws: WatchConnectionError.self) {
                try await link.phone.send(Greet(name: "\(request)"), strategy: .messageOnly, delivery: .immediate, retryPolicy: policy)
            }
            #expect(link.phone.sessionHealth == (request >= 3 ? .degraded : .healthy), "after \(request) failed requests")
        }
        #expect(phoneSession.history.count == 9)
    }

    @Test("a request its caller cancels does not count: the link did not fail")
    func cancelledRequestsDoNotCount() async throws {
        let link = try await TestLink(.flaky)
        let (phoneSession, _) = try #require(link.flaky)
        link.watch.registerGreeter(Counter())
        // The message is in flight (its delivery waits on the clock) when the caller gives up.
        phoneSession.latency = .seconds(60)
        let phone = link.phone
        for request in 1...3 {
            let send = Task { try await phone.send(Greet(name: "\(request)"), strategy: .messageOnly, retryPolicy: .none) }
            // This send's timeout, and the latency of every message so far (they are not cancelled).
            await link.clock.waitForSleepers(count: request + 1)
            send.cancel()
            await #expect(throws: WatchConnectionError.cancelled) { try await send.value }
        }
        #expect(phone.sessionHealth == .healthy)
    }

    @Test("an unreachable installed peer suggests openCompanionApp once per 30 s on the clock")
    func suggestionDedupe() async throws {
        let link = try await TestLink(.flaky)
        let (phoneSession, _) = try #require(link.flaky)
        let suggestions = link.phone.recoverySuggestions
        let events = link.phone.diagnosticEvents
        // Reachable as far as the connection knows, but the messages find nobody: phantom reachability.
        phoneSession.script(Array(repeating: .fail(code: 7007), count: 3))
        for _ in 0..<2 {
            _ = try? await link.phone.send(Greet(name: "x"), strategy: .messageOnly, delivery: .immediate, retryPolicy: .none)
        }
        link.clock.advance(by: .seconds(30))
        _ = try? await link.phone.send(Greet(name: "x"), strategy: .messageOnly, delivery: .immediate, retryPolicy: .none)
        var iterator = suggestions.makeAsyncIterator()
        #expect(await iterator.next() == .openCompanionApp)
        #expect(await iterator.next() == .openCompanionApp)
        var made = 0
        var failures = 0
        for await event in events {
            if case .recoverySuggested = event { made += 1 }
            if case .deliveryFailed = event { failures += 1 }
            if failures == 3 { break }
        }
        #expect(made == 2)
    }

    @Test("flapping reachability suggests bringDevicesCloser")
    func flapping() async throws {
        let link = try await TestLink(.flaky)
        let (phoneSession, _) = try #require(link.flaky)
        let suggestions = link.phone.recoverySuggestions
        let flap = Task { try await phoneSession.flapReachability(times: 3, every: .seconds(5)) }
        for flip in 1...3 {
            await link.clock.waitForSleepers(count: 1)
            link.clock.advance(by: .seconds(5))
            // The connection reads the session's state when it handles the event: let it see each flip.
            await link.phone.waitForStatus { $0.isReachable == flip.isMultiple(of: 2) }
        }
        try await flap.value
        var iterator = suggestions.makeAsyncIterator()
        #expect(await iterator.next() == .bringDevicesCloser)
    }

    @Test("attemptRecovery: probe answered → recoverySucceeded and healthy")
    func recoverySucceeds() async throws {
        let link = try await TestLink(.flaky)
        let events = link.phone.diagnosticEvents
        await link.phone.attemptRecovery()
        let outcome = await first(events) {
            if case .recoverySucceeded = $0 { true } else if case .recoveryFailed = $0 { true } else { false }
        }
        #expect(outcome == .recoverySucceeded)
        #expect(link.phone.sessionHealth == .healthy)
    }

    @Test("attemptRecovery with the peer gone: recoveryFailed after 5 s on the clock, repairDevices suggested")
    func recoveryFails() async throws {
        let link = try await TestLink(.flaky)
        try await link.makePeerUnreachable()
        let suggestions = link.phone.recoverySuggestions
        let phone = link.phone
        let recovery = Task { await phone.attemptRecovery() }
        await link.clock.waitForSleepers(count: 1)
        link.clock.advance(by: .seconds(5))
        await recovery.value
        var iterator = suggestions.makeAsyncIterator()
        #expect(await iterator.next() == .repairDevices)
    }

    @Test("waitForActivation and waitForConnection time out on the clock")
    func waits() async throws {
        let clock = ManualClock()
        let session = FlakySession(clock: clock)
        session.activationError = FlakySession.error(7004)
        let connection = WatchConnection(session: session, clock: clock)
        let activation = Task { try await connection.waitForActivation(timeout: .seconds(2)) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        await #expect(throws: WatchConnectionError.notActivated) { try await activation.value }
        let connected = Task { try await connection.waitForConnection(timeout: .seconds(3)) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(3))
        await #expect(throws: WatchConnectionError.timeout) { try await connected.value }
    }
}
