import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// `receive`, `ack` and `answer`: acting as the app (docs/ControlProtocol.md).
///
/// Durable items (received userInfo, the received context, didFinish notices) stay in the store until
/// the client acknowledges them with `ack`; a stream shows each one once, a new `receive` shows the
/// unacknowledged ones again. Live messages go to the newest client whose `handle`/`autoReply` covers
/// their variant (``MessageRouter``); `answer` replies to one shown with a token.
struct ReceiveOperations {
    /// The host served.
    let context: HostContext
    /// Routes live messages to the `receive --follow` clients acting as the app's handler.
    let router: MessageRouter

    var channels: AppChannels { context.channels }

    func register(on router: inout ControlRouter) {
        router.registerStream(ReceiveOperation.self) { request, call in
            guard !request.follow else { return await followReceive(request, call: call) }
            let line: [UInt8]
            do throws(WCFailure) {
                line = try await receiveSnapshot(request, id: call.id)
            } catch {
                line = ControlResponse.failure(call.id, error).lineBytes
            }
            await call.writer.send(line: line)
        }
        router.register(AckOperation.self) { request, _ throws(WCFailure) in try await ack(request) }
        // Answering never waits: served as the line is read, without a task (the message path's hot half).
        router.registerImmediate(AnswerOperation.self) { request, _ throws(WCFailure) in try answer(request.answer) }
    }

    /// The most userInfo items or finished transfers one non-following `receive` returns (ack and ask again).
    static let receivePageSize = 256

    /// Which channels a `receive` asked for (all when `channels` is absent).
    struct Channels {
        var userInfo: Bool
        var applicationContext: Bool
        var didFinish: Bool
        var message: Bool

        init(_ names: Set<ReceiveOperation.Channel>?) {
            let wanted = names ?? Set(ReceiveOperation.Channel.allCases)
            userInfo = wanted.contains(.userInfo)
            applicationContext = wanted.contains(.applicationContext)
            didFinish = wanted.contains(.didFinish)
            message = wanted.contains(.message)
        }
    }

    /// `receive` without `follow`: what is waiting now, without messages (``ControlLines/receiveSnapshot(_:items:more:)``).
    func receiveSnapshot(_ request: ReceiveOperation, id: Int64) async throws(WCFailure) -> [UInt8] {
        let wanted = Channels(request.channels)
        var items: [ControlLines.Item] = []
        // One page per channel; `more` tells the client to acknowledge and ask again.
        var more = false
        if wanted.userInfo {
            let page = try await channels.pendingUserInfo(after: 0, limit: Self.receivePageSize)
            more = more || page.count == Self.receivePageSize
            items += page.map(ControlLines.Item.userInfo)
        }
        if wanted.applicationContext, let context = try await channels.pendingContext() {
            items.append(.applicationContext(context))
        }
        if wanted.didFinish {
            let page = try await channels.pendingFinished(limit: Self.receivePageSize)
            more = more || page.count == Self.receivePageSize
            items += page.map(ControlLines.Item.didFinish)
            let files = try await channels.pendingFinishedFiles(limit: Self.receivePageSize)
            more = more || files.count == Self.receivePageSize
            items += files.map(ControlLines.Item.didFinishFile)
        }
        return ControlLines.receiveSnapshot(id, items: items, more: more)
    }

    /// `receive` with `follow`: the message handler attached (if asked for), then the success response,
    /// then every waiting item and each new one, until the client closes its side or the daemon stops.
    func followReceive(_ request: ReceiveOperation, call: ControlCall) async {
        let connection = call.connection
        let wanted = Channels(request.channels)
        // Fires once the success response is written: a message that finds the handler before then waits,
        // so the response still comes first on the stream.
        let answered = AsyncSignal()
        let registration = handlerRegistration(request, wanted: wanted, call: call, answered: answered)
        // Attach before answering: a client that sees the success may at once make a peer send it a
        // message, which must find the handler (not 7014).
        if let registration {
            await router.attach(registration)
            // The connection may have stopped reading (and detached this client) while attaching; the
            // request still gets its response, then the stream ends at once.
            if connection.isClosing { await router.detach(clientId: connection.id) }
        }
        let sent = await connection.writer.send(.success(call.id))
        answered.fire()
        guard sent else { return }

        var cursor: UInt64 = 0
        var finishedCursor: UInt64 = 0
        var finishedFileCursor: UInt64 = 0
        var shownContext: StoredContext?
        // Each kind is read only when it changed since the last look (the first look reads them all).
        var looked: AppChanges.Marks?
        while !connection.isClosing, !Task.isCancelled, !connection.writer.isBroken {
            let marks = channels.appChanges.marks
            do throws(WCFailure) {
                // Page through everything after each cursor; acknowledged or not, each item is shown once.
                if wanted.userInfo, marks.moved(.userInfo, since: looked) {
                    let shown = try await Self.showPages(after: &cursor, position: \.deliveryId) { after throws(WCFailure) in
                        try await channels.pendingUserInfo(after: after, limit: Self.receivePageSize)
                    } show: { transfer in
                        await connection.writer.send(line: ControlLines.event(call.id, .userInfo(transfer)))
                    }
                    guard shown else { return }
                }
                if wanted.applicationContext, marks.moved(.context, since: looked),
                    let context = try await channels.pendingContext(), context != shownContext
                {
                    guard await connection.writer.send(line: ControlLines.event(call.id, .applicationContext(context))) else { return }
                    shownContext = context
                }
                if wanted.didFinish, marks.moved(.finished, since: looked) {
                    // Transfers finish in seq order, so a seq cursor shows each notice once.
                    let shown = try await Self.showPages(after: &finishedCursor, position: \.seq) { after throws(WCFailure) in
                        try await channels.pendingFinished(after: after, limit: Self.receivePageSize)
                    } show: { transfer in
                        await connection.writer.send(line: ControlLines.event(call.id, .didFinish(transfer)))
                    }
                    guard shown else { return }
                }
                if wanted.didFinish, marks.moved(.finishedFiles, since: looked) {
                    // Files have a seq order of their own.
                    let shownFiles = try await Self.showPages(after: &finishedFileCursor, position: \.seq) { after throws(WCFailure) in
                        try await channels.pendingFinishedFiles(after: after, limit: Self.receivePageSize)
                    } show: { file in
                        await connection.writer.send(line: ControlLines.event(call.id, .didFinishFile(file)))
                    }
                    guard shownFiles else { return }
                }
                looked = marks
            } catch {
                // A store failure: tell the client, then read every kind again on the next change.
                looked = nil
                await connection.writer.send(.streamEvent(call.id, "error", .object([
                    "code": .integer(Int64(error.code.rawValue)), "name": .string(error.code.name), "message": .string(error.message),
                ])))
            }
            await Waiting.any([(channels.appSignal, marks.generation), (connection.closing, 0)])
        }
    }

    /// Reads pages after `cursor` until a short one, showing each item and moving `cursor` past it.
    /// Returns false when `show` could not write (the client is gone).
    private static func showPages<Item>(
        after cursor: inout UInt64,
        position: (Item) -> UInt64,
        read: (UInt64) async throws(WCFailure) -> [Item],
        show: (Item) async -> Bool
    ) async throws(WCFailure) -> Bool {
        while true {
            let page = try await read(cursor)
            for item in page {
                guard await show(item) else { return false }
                cursor = position(item)
            }
            if page.count < receivePageSize { return true }
        }
    }

    /// The message-handler registration a following `receive` asks for, if any.
    ///
    /// `handle` lists the variants; `autoReply` without `handle` handles the two dictionary variants (or
    /// the two data variants when it is `{"$data": …}`).
    private func handlerRegistration(
        _ request: ReceiveOperation, wanted: Channels, call: ControlCall, answered: AsyncSignal
    ) -> MessageRouter.Registration? {
        guard wanted.message, request.handlesMessages else { return nil }
        let autoReply = request.autoReply
        let autoError = request.autoError.map(Self.appError)
        let autoDelay = request.autoDelay.map { Duration.seconds($0) }
        let variants: Set<MessageVariant>
        if let handle = request.handle {
            variants = handle
        } else if autoError != nil {
            variants = Set(MessageVariant.allCases)
        } else if case .data? = autoReply {
            variants = [.data, .dataWithReply]
        } else {
            variants = [.dictionary, .dictionaryWithReply]
        }
        let writer = call.writer
        let requestId = call.id
        return MessageRouter.Registration(
            clientId: call.connection.id, variants: variants, autoReply: autoReply, autoError: autoError, autoDelay: autoDelay,
            deliverNow: { token, message in
                answered.generation > 0 && writer.sendIfReady(line: ControlLines.message(requestId, token: token, message))
            }
        ) { token, message in
            await answered.wait(after: 0)
            return await writer.send(line: ControlLines.message(requestId, token: token, message))
        }
    }

    /// `answer`: the app's reply (or error) to the message shown with `token`.
    private func ack(_ request: AckOperation) async throws(WCFailure) -> JSONValue {
        if let deliveryId = request.deliveryId {
            try await channels.acknowledgeUserInfo(upTo: deliveryId)
        }
        if let finished = request.finished {
            // The ids of userInfo and file transfers are distinct; one transaction forgets both kinds.
            try await channels.acknowledgeFinishedTransfers(finished)
        }
        if let version = request.contextVersion {
            try await channels.acknowledgeContext(version: version)
        }
        return .object([:])
    }

    private func answer(_ answer: Answer<MessageBody>) throws(WCFailure) -> JSONValue {
        let result = answer.outcome.result({ Optional.some($0) }, Self.appError)
        guard router.answer(token: answer.token, result) else {
            throw WCFailure(.invalidParameter, "No message waits for an answer with token \(answer.token) (answered, expired, or not a message that wants a reply).")
        }
        return .object([:])
    }

    static func appError(_ code: WCErrorCode) -> WCFailure {
        WCFailure(code, "the app answered with error \(code.rawValue)")
    }
}
