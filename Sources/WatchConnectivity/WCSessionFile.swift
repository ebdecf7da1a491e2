import Foundation
import WatchPairWire

/// A file received from the counterpart (`session(_:didReceive:)`), or the file of a transfer this app
/// started (`WCSessionFileTransfer.file`).
///
/// A received file is in the app's `files/` directory (`<state directory>/files`) while the delegate
/// method runs and is removed when it returns, as on Apple's devices: move or copy it during the call
/// to keep it.
public final class WCSessionFile: NSObject, @unchecked Sendable {
    /// Where the file is.
    ///
    /// For a received file: in the app's `files/` directory, under the sender's file name (or the name
    /// with a short transfer tag when a file of that name is already there). For an outgoing transfer:
    /// the URL the app passed to `transferFile(_:metadata:)`, or, for a transfer listed after a restart,
    /// the session's own copy of the file.
    public let fileURL: URL
    private let storedMetadata: PlistDictionary?

    init(fileURL: URL, metadata: PlistDictionary?) {
        self.fileURL = fileURL
        self.storedMetadata = metadata
    }

    /// The metadata the sender passed to `transferFile(_:metadata:)`; nil when it passed none.
    public var metadata: [String: Any]? {
        storedMetadata.map(PropertyListBridge.object(from:))
    }

    /// `<WCSessionFile path>`.
    public override var description: String {
        "<WCSessionFile \(fileURL.path)>"
    }
}
