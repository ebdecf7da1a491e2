import WatchConnectivity

/// The phone's view of the watch when `sessionWatchStateDidChange(_:)` was called.
public struct WatchStateSnapshot: Sendable, Hashable, CustomStringConvertible {
    /// `isPaired`.
    public var isPaired: Bool
    /// `isWatchAppInstalled`.
    public var isWatchAppInstalled: Bool
    /// `isComplicationEnabled`.
    public var isComplicationEnabled: Bool

    /// A snapshot of these values.
    public init(isPaired: Bool, isWatchAppInstalled: Bool, isComplicationEnabled: Bool) {
        self.isPaired = isPaired
        self.isWatchAppInstalled = isWatchAppInstalled
        self.isComplicationEnabled = isComplicationEnabled
    }

    /// `session`'s values now.
    init(of session: WCSession) {
        self.init(
            isPaired: session.isPaired, isWatchAppInstalled: session.isWatchAppInstalled,
            isComplicationEnabled: session.isComplicationEnabled)
    }

    /// E.g. `installed, complication enabled`.
    public var description: String {
        [isPaired ? nil : "not paired", isWatchAppInstalled ? "installed" : "not installed",
         isComplicationEnabled ? "complication enabled" : nil].compactMap { $0 }.joined(separator: ", ")
    }
}

/// A file the session delivered, read while `session(_:didReceive:)` ran (the session removes the file
/// when the callback returns).
public struct ArrivedFile: Sendable, Hashable, CustomStringConvertible {
    /// Where the file was during the callback (gone afterwards, unless a forwarded delegate moved it).
    public let fileURL: URL
    /// The sender's metadata, or nil when it sent none.
    public let metadata: WCPayload?
    /// The file's bytes (empty when it could not be read).
    public let contents: Data

    /// The file's name, e.g. `route.gpx`.
    public var name: String { fileURL.lastPathComponent }

    /// E.g. `route.gpx (1024 bytes)`.
    public var description: String { "\(name) (\(contents.count) bytes)" }
}

/// A userInfo transfer this app started, as `session(_:didFinish:error:)` reported it.
public struct UserInfoTransferResult: Sendable, Equatable, CustomStringConvertible {
    /// The transfer object (the one `transferUserInfo` returned, while the app holds it).
    public let transfer: WCSessionUserInfoTransfer
    /// Its dictionary (empty for a refused one that is not a property list).
    public let userInfo: WCPayload
    /// Why it failed; nil when the counterpart has it.
    public let error: WCError?

    /// The dictionary, and the error if it failed.
    public var description: String { error.map { "\(userInfo) failed: \($0)" } ?? "\(userInfo)" }
}

/// A file transfer this app started, as `session(_:didFinish:error:)` reported it.
public struct FileTransferResult: Sendable, Equatable, CustomStringConvertible {
    /// The transfer object: the one `transferFile` returned while the app holds it (else one whose
    /// `file.fileURL` is the session's own copy).
    public let transfer: WCSessionFileTransfer
    /// Why it failed; nil when the counterpart holds the file, verified.
    public let error: WCError?

    /// The file's name, and the error if it failed.
    public var description: String {
        let name = transfer.file.fileURL.lastPathComponent
        return error.map { "\(name) failed: \($0)" } ?? name
    }
}

extension WCError {
    /// A callback's error as a `WCError` (the session reports only those; another error is 7001).
    init?(reported error: (any Error)?) {
        guard let error else { return nil }
        self = error as? WCError ?? WCError(_nsError: error as NSError)
    }
}
