import Foundation
import WatchConnection
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// Runs control requests against the engine (docs/ControlProtocol.md, one method per operation).
///
/// Every failure becomes a response with its `WCError` code; nothing a request contains can throw out
/// of here. Streaming requests (`receive`/`events` with `follow`, `serve`) are in ``ReceiveOperations``
/// and the `+Events` and `+Request` extensions.
struct ControlHandler: ControlRequestHandler {
    /// The host served: engine, store, recent events, status.
    let context: HostContext
    /// Routes live messages to the `receive --follow` clients acting as the app's handler.
    let router: MessageRouter
    /// The app's reliability layer: `request` and `serve`.
    let connection: AppConnection

    var engine: PairEngine { context.engine }
    var store: PairStore { context.store }
    var events: EventLog { context.events }
    /// `transferFile`, `files`, `cancelFile`.
    var fileOperations: FileOperations { FileOperations(context: context) }
    /// `receive` and `answer`.
    var receiveOperations: ReceiveOperations { ReceiveOperations(context: context, router: router) }
    /// `uninstall`, `install`, `setComplication`.
    var installationOperations: InstallationOperations { InstallationOperations(engine: engine) }

    /// A connection that stopped reading no longer handles messages; its unanswered ones fail with 7014.
    func connectionStopped(id: UInt64) async {
        await router.detach(clientId: id)
        await connection.stopServing(clientId: id)
    }

    /// Runs `request` and writes its response (and, for streams, its events) to `connection`.
    func perform(_ request: ControlRequest, on connection: ControlConnection) async {
        switch request.op {
        case .transferFile where request.follow == true:
            await fileOperations.followTransferFile(request, on: connection)
        case .receive where request.follow == true:
            await receiveOperations.followReceive(request, on: connection)
        case .events where request.follow == true:
            await followEvents(request, on: connection)
        case .serve:
            await followServe(request, on: connection)
        default:
            await connection.writer.send(line: await respond(to: request, on: connection))
        }
    }

    /// The single response to a non-streaming request, as its line.
    ///
    /// The results written once per message or transfer skip the `JSONValue` tree (``ControlLines``).
    func respond(to request: ControlRequest, on connection: ControlConnection) async -> [UInt8] {
        do throws(WCFailure) {
            switch request.op {
            case .send, .sendData: return ControlLines.sendResult(request.id, reply: try await send(request))
            case .transfer: return ControlLines.transferResult(request.id, try await transfer(request))
            case .transferComplication:
                let (transfer, remaining) = try await transferComplication(request)
                return ControlLines.transferResult(request.id, transfer, complicationsRemaining: remaining)
            case .receive: return try await receiveOperations.receiveSnapshot(request)
            default: return ControlResponse.success(request.id, try await result(of: request, on: connection)).lineBytes
            }
        } catch {
            return ControlResponse.failure(request.id, error).lineBytes
        }
    }

    private func result(of request: ControlRequest, on connection: ControlConnection) async throws(WCFailure) -> JSONValue {
        switch request.op {
        case .status: return await status()
        case .send, .sendData, .transfer, .transferComplication:
            // respond(to:on:) writes these results itself (ControlLines), without a tree.
            throw WCFailure(.genericError, "'\(request.op.rawValue)' is answered by respond(to:on:)")
        case .transfers: return try await transfers()
        case .cancel: return try await cancel(request)
        case .transferFile: return try await fileOperations.transferFile(request)
        case .files: return try await fileOperations.files()
        case .cancelFile: return try await fileOperations.cancelFile(request)
        case .contextSet: return try await contextSet(request)
        case .contextGet: return try await contextGet(request)
        case .receive:
            // respond(to:on:) writes the snapshot itself (ControlLines), without a tree.
            throw WCFailure(.genericError, "'receive' is answered by respond(to:on:)")
        case .ack: return try await ack(request)
        case .answer: return try receiveOperations.answer(request)
        case .events: return .object(["events": .array(events.recent.map(\.controlJSON))])
        case .wait: return try await wait(request, on: connection)
        case .request: return try await self.request(request)
        case .respond: return try await respond(request)
        case .health: return await self.connection.health()
        case .queue: return await self.connection.queue()
        case .queueCancel: return await self.connection.cancelQueued(request.requestId.flatMap(UUID.init(uuidString:)))
        case .connect: return await self.connection.setMode(ConnectionMode.active)
        case .disconnect: return await self.connection.setMode(ConnectionMode.passive)
        case .syncSet:
            return try await self.connection.syncSet(
                key: request.key ?? "", value: request.value ?? .null, availability: request.availability, policy: request.policy)
        case .syncGet: return try await self.connection.syncGet(key: request.key ?? "")
        case .syncList: return try await self.connection.syncList()
        case .syncNow: return try await self.connection.syncNow()
        case .uninstall: return try await installationOperations.setInstalled(false)
        case .install: return try await installationOperations.setInstalled(true)
        case .open: return await installationOperations.open()
        case .setComplication: return try await installationOperations.setComplicationEnabled(request)
        case .serve: throw WCFailure(.invalidParameter, "'serve' is a stream")
        }
    }

    private func status() async -> JSONValue {
        await context.statusJSON()
    }

    /// `send` and `sendData`. The wait for the reply is abandoned if the daemon stops meanwhile.
    private func send(_ request: ControlRequest) async throws(WCFailure) -> MessageBody? {
        let body: MessageBody
        if request.op == .sendData {
            guard let data = request.data.flatMap({ Data(base64Encoded: $0) }) else {
                throw WCFailure(.invalidParameter, "\"data\" must be base64.")
            }
            body = .data(data)
        } else {
            body = .dictionary(try PlistJSON.dictionary(fromJSON: request.message ?? .object([:]), name: "\"message\""))
        }
        let wantsReply = request.noReply != true
        let timeout = request.timeout.map { Duration.seconds($0) }
        let engine = self.engine
        let outcome = await OnceValue<Result<MessageBody?, WCFailure>>.abandoningOnCancel { () async -> Result<MessageBody?, WCFailure> in
            do throws(WCFailure) {
                return .success(try await engine.sendMessage(body, wantsReply: wantsReply, timeout: timeout))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case nil:
            throw WCFailure(.genericError, "the daemon is stopping; the message's outcome is unknown")
        case .failure(let failure)?:
            throw failure
        case .success(let reply)?:
            return reply
        }
    }

    private func transfer(_ request: ControlRequest) async throws(WCFailure) -> OutboxTransfer {
        try await engine.transferUserInfo(try Self.userInfo(request))
    }

    /// The queued transfer and how many complication transfers remain today.
    private func transferComplication(_ request: ControlRequest) async throws(WCFailure) -> (OutboxTransfer, Int) {
        let transfer = try await engine.transferCurrentComplicationUserInfo(try Self.userInfo(request))
        return (transfer, await engine.remainingComplicationUserInfoTransfers())
    }

    private static func userInfo(_ request: ControlRequest) throws(WCFailure) -> PlistDictionary {
        try PlistJSON.dictionary(fromJSON: request.userInfo ?? .object([:]), name: "\"userInfo\"")
    }

    private func transfers() async throws(WCFailure) -> JSONValue {
        let outstanding = try await engine.outstandingUserInfoTransfers()
        return .object([
            "transfers": .array(outstanding.map { transfer in
                var object: [String: JSONValue] = [
                    "transferId": .string(transfer.transferId.uuidString),
                    "seq": ControlJSON.integer(transfer.seq),
                    "userInfo": ControlJSON.json(transfer.payload),
                    "isTransferring": .bool(true),
                    "createdAt": ControlJSON.timestamp(transfer.createdAt),
                ]
                // Only when set, so plain transfers list as they did.
                if transfer.isCurrentComplicationInfo { object["isCurrentComplicationInfo"] = .bool(true) }
                return .object(object)
            })
        ])
    }

    private func cancel(_ request: ControlRequest) async throws(WCFailure) -> JSONValue {
        guard let transferId = request.transferId.flatMap(UUID.init(uuidString:)) else {
            throw WCFailure(.invalidParameter, "\"transferId\" must be a transfer id (UUID).")
        }
        return .object(["cancelled": .bool(try await engine.cancelUserInfo(transferId))])
    }

    private func contextSet(_ request: ControlRequest) async throws(WCFailure) -> JSONValue {
        let payload = try PlistJSON.dictionary(fromJSON: request.context ?? .object([:]), name: "\"context\"")
        if let stored = try await engine.updateApplicationContext(payload) {
            return .object(["version": ControlJSON.integer(stored.version), "changed": .bool(true)])
        }
        let current = try await storeRead(received: false)
        return .object(["version": ControlJSON.integer(current?.version ?? 0), "changed": .bool(false)])
    }

    /// Read from the store rather than the engine so the version and the dictionary come from one read.
    private func contextGet(_ request: ControlRequest) async throws(WCFailure) -> JSONValue {
        let stored = try await storeRead(received: request.received == true)
        return .object([
            "context": ControlJSON.json(stored?.payload ?? [:]),
            "version": ControlJSON.integer(stored?.version ?? 0),
        ])
    }

    private func ack(_ request: ControlRequest) async throws(WCFailure) -> JSONValue {
        if let deliveryId = request.deliveryId {
            try await engine.acknowledgeUserInfo(upTo: deliveryId)
        }
        if let finished = request.finished {
            // The ids of userInfo and file transfers are distinct; one transaction forgets both kinds.
            try await engine.acknowledgeFinishedTransfers(finished.compactMap(UUID.init(uuidString:)))
        }
        if let version = request.contextVersion {
            try await engine.acknowledgeContext(version: version)
        }
        return .object([:])
    }

    /// The received or the sent context with its version, mapping a store error to the `WCError` a caller sees.
    private func storeRead(received: Bool) async throws(WCFailure) -> StoredContext? {
        do {
            return received ? try await store.contexts.receivedContext() : try await store.contexts.sentContext()
        } catch {
            throw WCFailure(error.wcCode, error.message)
        }
    }
}
