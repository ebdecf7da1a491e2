import Foundation
import WatchPairWire

extension FileChannel {
    /// Emits a file event about the file `offer` describes (either side): channel `file`, its transfer id
    /// and seq, `WC_FILE_NAME`, `WC_FILE_BYTES` and, where given, `WC_FILE_OFFSET`.
    func emit(
        _ kind: DiagnosticEvent.Kind, _ message: String, _ offer: FileOffer, offset: UInt64? = nil, errorCode: WCErrorCode? = nil,
        _ engine: isolated PairEngine
    ) {
        engine.emit(
            kind, message, channel: .file, transferId: offer.transferId, seq: offer.seq, errorCode: errorCode,
            file: DiagnosticEvent.FileFields(name: offer.fileName, bytes: offer.size, offset: offset))
    }
}

extension OutgoingFile {
    /// The file as an offer, for events (`after` does not matter there).
    var described: FileOffer { offer(after: 0) }
}
