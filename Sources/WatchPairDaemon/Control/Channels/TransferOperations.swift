import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// `transfer`: `transferUserInfo`.
struct TransferOperation: ControlOperation {
    typealias Result = TransferResult
    static let name = "transfer"

    var userInfo: PlistDictionary

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        userInfo = try Self.required("userInfo", from: &fields) { fields throws(WCFailure) in try fields.dictionary() }
    }
}

/// `transferComplication`: `transferCurrentComplicationUserInfo`, phone only.
struct TransferComplicationOperation: ControlOperation {
    typealias Result = TransferResult
    static let name = "transferComplication"

    var userInfo: PlistDictionary

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        userInfo = try Self.required("userInfo", from: &fields) { fields throws(WCFailure) in try fields.dictionary() }
    }
}

/// `transfers`: `outstandingUserInfoTransfers`.
struct TransfersOperation: FieldlessControlOperation {
    static let name = "transfers"
}

/// `cancel`: cancels an outstanding userInfo transfer.
struct CancelOperation: ControlOperation {
    static let name = "cancel"

    var transferId: UUID

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        transferId = try Self.required("transferId", from: &fields) { fields throws(WCFailure) in try fields.transferId() }
    }
}

/// The result of `transfer` (and of `transferComplication`, with the complication's two members).
struct TransferResult: ControlResult {
    var transfer: OutboxTransfer
    var complicationsRemaining: Int?

    func responseLine(id: Int64) -> [UInt8] {
        ControlLines.transferResult(id, transfer, complicationsRemaining: complicationsRemaining)
    }
}

/// The userInfo channel's operations.
struct TransferOperations {
    let channels: AppChannels

    func register(on router: inout ControlRouter) {
        let channels = self.channels
        router.register(TransferOperation.self) { request, _ throws(WCFailure) in
            TransferResult(transfer: try await channels.transferUserInfo(request.userInfo))
        }
        router.register(TransferComplicationOperation.self) { request, _ throws(WCFailure) in
            let transfer = try await channels.transferCurrentComplicationUserInfo(request.userInfo)
            return TransferResult(transfer: transfer, complicationsRemaining: await channels.remainingComplicationUserInfoTransfers())
        }
        router.register(TransfersOperation.self) { _, _ throws(WCFailure) in try await transfers() }
        router.register(CancelOperation.self) { request, _ throws(WCFailure) in
            .object(["cancelled": .bool(try await channels.cancelUserInfo(request.transferId))])
        }
    }

    private func transfers() async throws(WCFailure) -> JSONValue {
        let outstanding = try await channels.outstandingUserInfoTransfers()
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
}
