import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// The message channel end to end, each test over the in-memory pair and over real Unix sockets.
@Suite("message channel", .timeLimit(.minutes(3)))
struct MessageChannelTests {
    static let echo = MessageHandler(variants: Set(MessageVariant.allCases)) { message in
        .success(message.wantsReply ? message.body : nil)
    }

    @Test("a reply comes back to the sender", arguments: TransportKind.allCases)
    func replies(kind: TransportKind) async throws {
        let pair = try EnginePair(kind)
        let watch = try await pair.start(.watch)
        await watch.setMessageHandler(Self.echo)
        let phone = try await pair.start(.phone)
        try await until("phone sees the watch", on: phone.stateSignal) { await phone.isReachable }

        let reply = try await phone.sendMessage(.dictionary(["ping": .integer(1)]), wantsReply: true)
        #expect(reply == .dictionary(["ping": .integer(1)]))
        let dataReply = try await phone.sendMessage(.data(Data([1, 2, 3])), wantsReply: true)
        #expect(dataReply == .data(Data([1, 2, 3])))
        let none = try await phone.sendMessage(.dictionary(["fire": .bool(true)]), wantsReply: false)
        #expect(none == nil)
        await pair.tearDown()
    }

    @Test("the watch's message reaches the phone and is answered", arguments: TransportKind.allCases)
    func watchToPhone(kind: TransportKind) async throws {
        let pair = try EnginePair(kind)
        let phone = try await pair.start(.phone)
        await phone.setMessageHandler(Self.echo)
        let watch = try await pair.start(.watch)
        let reply = try await watch.sendMessage(.dictionary(["from": .string("watch")]), wantsReply: true)
        #expect(reply == .dictionary(["from": .string("watch")]))
        await pair.tearDown()
    }

    @Test("7007 at once when the watch app is not running", arguments: TransportKind.allCases)
    func notReachable(kind: TransportKind) async throws {
        let pair = try EnginePair(kind)
        let phone = try await pair.start(.phone)
        await #expect(throws: WCFailure.self) {
            _ = try await phone.sendMessage(.dictionary([:]), wantsReply: true)
        }
        do {
            _ = try await phone.sendMessage(.dictionary([:]), wantsReply: false)
            Issue.record("expected 7007")
        } catch {
            #expect(error.code == .notReachable)
        }
        await pair.tearDown()
    }

    @Test("7014 when the receiver has no handler for the variant", arguments: TransportKind.allCases)
    func noHandler(kind: TransportKind) async throws {
        let pair = try EnginePair(kind)
        let watch = try await pair.start(.watch)
        await watch.setMessageHandler(MessageHandler(variants: [.dictionary]) { _ in .success(nil) })
        let phone = try await pair.start(.phone)
        try await until("phone sees the watch", on: phone.stateSignal) { await phone.isReachable }

        // The no-reply variant is handled: delivered.
        #expect(try await phone.sendMessage(.dictionary(["a": .integer(1)]), wantsReply: false) == nil)
        // The reply variant is not: 7014, and exactly that.
        do {
            _ = try await phone.sendMessage(.dictionary(["a": .integer(1)]), wantsReply: true)
            Issue.record("expected 7014")
        } catch {
            #expect(error.code == .deliveryFailed)
        }
        await pair.tearDown()
    }

    @Test("a reply of the wrong kind gives the sender 7011")
    func replyKindMismatch() async throws {
        let pair = try EnginePair(.inMemory)
        let watch = try await pair.start(.watch)
        await watch.setMessageHandler(MessageHandler(variants: [.dictionaryWithReply]) { _ in .success(.data(Data([9]))) })
        let phone = try await pair.start(.phone)
        try await until("phone sees the watch", on: phone.stateSignal) { await phone.isReachable }
        do {
            _ = try await phone.sendMessage(.dictionary([:]), wantsReply: true)
            Issue.record("expected 7011")
        } catch {
            #expect(error.code == .messageReplyFailed)
        }
        await pair.tearDown()
    }

    @Test("oversized messages fail with 7009 before anything is sent")
    func tooLarge() async throws {
        let pair = try EnginePair(.inMemory)
        let phone = try await pair.start(.phone)
        do {
            _ = try await phone.sendMessage(.data(Data(count: 65_537)), wantsReply: true)
            Issue.record("expected 7009")
        } catch {
            #expect(error.code == .payloadTooLarge)
        }
        await pair.tearDown()
    }

    @Test("a phone message never launches a watch app that is only installed")
    func phoneNeverLaunchesWatch() async throws {
        let pair = try EnginePair(.inMemory)
        let launched = Launches()
        pair.network.setInstalled(.watch, true)
        pair.network.setActivationHandler(.watch) { launched.record() }
        let phone = try await pair.start(.phone)
        do {
            _ = try await phone.sendMessage(.dictionary([:]), wantsReply: true)
            Issue.record("expected 7007")
        } catch {
            #expect(error.code == .notReachable)
        }
        #expect(launched.count == 0)
        await pair.tearDown()
    }

    @Test("the watch's message launches a phone app that is only installed")
    func watchLaunchesPhone() async throws {
        // The launch (opening the phone's store) counts against the call's link set-up limit,
        // min(handshake timeout, message timeout): generous here, so a loaded machine cannot fail it.
        let pair = try EnginePair(.inMemory) { $0.handshakeTimeout = .seconds(30) }
        pair.network.setInstalled(.phone, true)
        pair.network.setActivationHandler(.phone) {
            let phone = try? await pair.start(.phone, launch: .background)
            await phone?.setMessageHandler(MessageChannelTests.echo)
        }
        let watch = try await pair.start(.watch)
        let reply = try await watch.sendMessage(.dictionary(["wake": .bool(true)]), wantsReply: true, timeout: .seconds(30))
        #expect(reply == .dictionary(["wake": .bool(true)]))
        await pair.tearDown()
    }
}

/// Counts activations, for wake-rule tests.
final class Launches: Sendable {
    private let value = Mutex(0)
    func record() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

import Synchronization
