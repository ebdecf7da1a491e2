import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// The file-transfer control operations (docs/ControlProtocol.md, "Files"): `transferFile` (with
/// `follow`, the file's progress until it ends), `files`, `cancelFile`, with their request types.
struct FileOperations {
    /// The host served.
    let context: HostContext

    var channels: AppChannels { context.channels }

    /// The app's `files/` directory, where received files land.
    var filesDirectory: AppFilesDirectory { context.channels.filesDirectory }

    /// `transferFile`: accepts the file at `path` (read by the daemon); returns once it is durable.
    func register(on router: inout ControlRouter) {
        router.registerStream(TransferFileOperation.self) { request, call in
            guard !request.follow else { return await followTransferFile(request, call: call) }
            let response: ControlResponse
            do throws(WCFailure) {
                response = .success(call.id, try await transferFile(request))
            } catch {
                response = .failure(call.id, error)
            }
            await call.writer.send(response)
        }
        router.register(FilesOperation.self) { _, _ throws(WCFailure) in try await files() }
        router.register(CancelFileOperation.self) { request, _ throws(WCFailure) in
            .object(["cancelled": .bool(try await channels.cancelFileTransfer(request.transferId))])
        }
    }

    func transferFile(_ request: TransferFileOperation) async throws(WCFailure) -> JSONValue {
        Self.outgoingData(try await channels.transferFile(at: request.path, metadata: request.metadata), acknowledged: 0)
    }

    /// `transferFile` with `follow`: the success response, then a `progress` event each time the peer
    /// acknowledges more, then one of `finished` (the peer holds it, verified), `failed` (with the code)
    /// or `cancelled`; then the request ends. Ends early when the client closes or the daemon stops.
    func followTransferFile(_ request: TransferFileOperation, call: ControlCall) async {
        let connection = call.connection
        let accepted: JSONValue
        do throws(WCFailure) {
            accepted = try await transferFile(request)
        } catch {
            await connection.writer.send(.failure(call.id, error))
            return
        }
        guard await connection.writer.send(.success(call.id, accepted)),
            let transferId = accepted["transferId"]?.stringValue.flatMap(UUID.init(uuidString:))
        else { return }
        var shown: UInt64?
        while !connection.isClosing, !Task.isCancelled, !connection.writer.isBroken {
            let seen = channels.contentSignal.generation
            let appSeen = channels.appSignal.generation
            do throws(WCFailure) {
                if let ended = try await ending(of: transferId) {
                    await connection.writer.send(.streamEvent(call.id, ended.kind, ended.data))
                    return
                }
            } catch {
                await connection.writer.send(.streamEvent(call.id, "failed", Self.errorData(error, transferId: transferId)))
                return
            }
            if let progress = await channels.outgoingFileProgress(), progress.transferId == transferId, progress.acknowledged != shown {
                shown = progress.acknowledged
                let data = JSONValue.object([
                    "transferId": .string(transferId.uuidString), "acknowledged": ControlJSON.integer(progress.acknowledged),
                    "size": ControlJSON.integer(progress.size),
                ])
                guard await connection.writer.send(.streamEvent(call.id, "progress", data)) else { return }
            }
            await Waiting.any([(channels.contentSignal, seen), (channels.appSignal, appSeen), (connection.closing, 0)])
        }
    }

    /// How file `transferId` ended, as a stream event; nil while it is outstanding.
    private func ending(of transferId: UUID) async throws(WCFailure) -> (kind: String, data: JSONValue)? {
        let outstanding = try await channels.outstandingFileTransfers()
        if outstanding.contains(where: { $0.transferId == transferId }) { return nil }
        let id = JSONValue.string(transferId.uuidString)
        // Not yet reported to a `receive` client: its outcome is still there. Gone: cancelled.
        guard let finished = try await channels.pendingFinishedFiles(limit: 1000).first(where: { $0.transferId == transferId }) else {
            return ("cancelled", .object(["transferId": id]))
        }
        switch finished.outcome {
        case .received?:
            return ("finished", .object(["transferId": id, "size": ControlJSON.integer(finished.size)]))
        case .corrupt?:
            let failure = WCFailure(.deliveryFailed, "the peer received \(finished.fileName) corrupt (checksum mismatch) and dropped it")
            return ("failed", Self.errorData(failure, transferId: transferId))
        case .cancelled?, nil:
            return ("cancelled", .object(["transferId": id]))
        }
    }

    /// `files`: outstanding outgoing files (oldest first, with the bytes the peer acknowledged) and the files
    /// in the app's `files/` directory.
    func files() async throws(WCFailure) -> JSONValue {
        let outstanding = try await channels.outstandingFileTransfers()
        let progress = await channels.outgoingFileProgress()
        let directory = filesDirectory
        return .object([
            "outgoing": .array(outstanding.map { file in
                Self.outgoingData(file, acknowledged: progress.flatMap { $0.transferId == file.transferId ? $0.acknowledged : nil } ?? 0)
            }),
            "received": .array(directory.list().map { landed in
                .object([
                    "name": .string(landed.name), "path": .string(landed.path), "size": ControlJSON.integer(landed.size),
                    "receivedAt": ControlJSON.timestamp(landed.modifiedAt),
                ])
            }),
            "directory": .string(directory.path),
        ])
    }

    /// `cancelFile`: cancels an outstanding file transfer; `cancelled` is false when it was not outstanding.
    static func outgoingData(_ file: OutgoingFile, acknowledged: UInt64) -> JSONValue {
        var object: [String: JSONValue] = [
            "transferId": .string(file.transferId.uuidString),
            "seq": ControlJSON.integer(file.seq),
            "fileName": .string(file.fileName),
            "size": ControlJSON.integer(file.size),
            "acknowledged": ControlJSON.integer(acknowledged),
            "isTransferring": .bool(file.outcome == nil),
            "createdAt": ControlJSON.timestamp(file.createdAt),
        ]
        if let metadata = file.metadata { object["metadata"] = ControlJSON.json(metadata.dictionary) }
        return .object(object)
    }

    /// A failure of file `transferId` as stream event data: `transferId`, `code`, `name`, `message`.
    static func errorData(_ error: WCFailure, transferId: UUID) -> JSONValue {
        .object([
            "transferId": .string(transferId.uuidString), "code": .integer(Int64(error.code.rawValue)),
            "name": .string(error.code.name), "message": .string(error.message),
        ])
    }
}

/// `transferFile`: `transferFile(_:metadata:)`; with `follow`, the file's progress until it ends.
struct TransferFileOperation: ControlOperation {
    static let name = "transferFile"

    /// The file's absolute path, read by the daemon (as its own user).
    var path: String
    var metadata: PlistDictionary?
    var follow = false

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        var path: String?
        while let field = try fields.next() {
            switch field {
            case "path": path = try fields.string()
            case "metadata": metadata = try fields.dictionary()
            case "follow": follow = try fields.bool() ?? false
            default: try fields.skip()
            }
        }
        guard let path else { throw Self.missing("path") }
        // Named in the error, as every refused file is (the daemon's working directory is not the client's).
        guard path.hasPrefix("/") else { throw ControlFieldReader.wrong("path", "an absolute path, not \(path)") }
        self.path = path
    }
}

/// `files`: outstanding outgoing files with their progress, and the files in the app's `files/` directory.
struct FilesOperation: FieldlessControlOperation {
    static let name = "files"
}

/// `cancelFile`: cancels an outstanding file transfer.
struct CancelFileOperation: ControlOperation {
    static let name = "cancelFile"

    var transferId: UUID

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        transferId = try Self.required("transferId", from: &fields) { fields throws(WCFailure) in try fields.transferId() }
    }
}
