// File transfers written the way WatchConnectivitySwift's `FileTransfer` path and a LocalData-style platform
// sync service use Apple's framework: `import WatchConnectivity` and nothing else of WatchPair, no stand-ins
// for `WCSessionFileTransfer`, `WCSessionFile` or `transferFile`. This target must keep compiling and
// passing. The one change from the Apple original: progress is read from `progress.fractionCompleted`
// (``FileTransferTracker/refresh()``), because Foundation on Linux has no key-value observing.
import Foundation
import Observation
import Synchronization
import WatchConnectivity

/// The session surface such a library abstracts for its tests; `WCSession` conforms as it is.
protocol FileSessionProviding: AnyObject, Sendable {
    var activationState: WCSessionActivationState { get }
    var delegate: (any WCSessionDelegate)? { get set }
    func activate()
    @discardableResult
    func transferFile(_ file: URL, metadata: [String: Any]?) -> WCSessionFileTransfer
    var outstandingFileTransfers: [WCSessionFileTransfer] { get }
}

extension WCSession: FileSessionProviding {}

/// Why a tracked transfer did not complete.
enum FileTransferFailure: Error, Equatable {
    /// The app cancelled it.
    case cancelled
    /// The session reported an error (its `WCError` code).
    case failed(code: Int)
}

/// One outgoing file as UI code observes it: progress, state, a way to wait for it or cancel it.
@MainActor
@Observable
final class FileTransferTracker {
    private(set) var fractionCompleted = 0.0
    private(set) var isTransferring = true
    private(set) var isCompleted = false
    private(set) var failure: FileTransferFailure?
    /// The file being transferred, and its metadata.
    let fileURL: URL
    let metadata: [String: Any]?
    /// The framework's transfer object.
    let wcTransfer: WCSessionFileTransfer
    private var waiters: [CheckedContinuation<Void, any Error>] = []

    init(_ transfer: WCSessionFileTransfer) {
        wcTransfer = transfer
        fileURL = transfer.file.fileURL
        metadata = transfer.file.metadata
        fractionCompleted = transfer.progress.fractionCompleted
    }

    /// Reads the transfer's progress (what a KVO observer would be told on Apple's platforms).
    func refresh() {
        fractionCompleted = wcTransfer.progress.fractionCompleted
    }

    /// Cancels the transfer; a waiter gets ``FileTransferFailure/cancelled``.
    func cancel() {
        wcTransfer.cancel()
        finish(.failure(.cancelled))
    }

    /// Returns when the counterpart has the file; throws ``FileTransferFailure`` otherwise.
    func waitForCompletion() async throws {
        if isCompleted { return }
        if let failure { throw failure }
        try await withCheckedThrowingContinuation { waiters.append($0) }
    }

    /// The session's `didFinish`: completed, or failed with `error`.
    func finish(_ outcome: Result<Void, FileTransferFailure>) {
        guard isTransferring else { return }
        isTransferring = false
        switch outcome {
        case .success:
            isCompleted = true
            refresh()
        case .failure(let reason):
            failure = reason
        }
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume(with: outcome.mapError { $0 as any Error }) }
    }
}

/// A file from the counterpart, as handed to the app's handler while `didReceive file` runs.
struct ReceivedFile: @unchecked Sendable {
    let fileURL: URL
    let metadata: [String: Any]?

    init(wcFile: WCSessionFile) {
        fileURL = wcFile.fileURL
        metadata = wcFile.metadata
    }
}

/// The connection a library builds around one session: sends files, routes `didFinish` to the trackers
/// and `didReceive` to the app's handler, which must move or copy the file before it returns.
final class FileConnection: NSObject, WCSessionDelegate, @unchecked Sendable {
    let session: any FileSessionProviding
    private let onFileReceived: @Sendable (ReceivedFile) -> Void
    private let activated: AsyncStream<WCSessionActivationState>.Continuation
    /// Activation results, in order.
    let activations: AsyncStream<WCSessionActivationState>
    @MainActor private var trackers: [ObjectIdentifier: FileTransferTracker] = [:]

    init(session: any FileSessionProviding, onFileReceived: @escaping @Sendable (ReceivedFile) -> Void) {
        self.session = session
        self.onFileReceived = onFileReceived
        (activations, activated) = AsyncStream.makeStream()
        super.init()
        session.delegate = self
    }

    func activate() { session.activate() }

    /// Sends `url` with `metadata`; the tracker completes when the counterpart has it.
    @MainActor
    func transferFile(_ url: URL, metadata: [String: Any]? = nil) -> FileTransferTracker {
        let tracker = FileTransferTracker(session.transferFile(url, metadata: metadata))
        // didFinish (also of a refused transfer) reaches the trackers on the main actor, so after this.
        trackers[ObjectIdentifier(tracker.wcTransfer)] = tracker
        return tracker
    }

    /// The transfers still on their way, as the session lists them.
    var outstandingCount: Int { session.outstandingFileTransfers.count }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        activated.yield(activationState)
    }

    func session(_ session: WCSession, didFinish fileTransfer: WCSessionFileTransfer, error: (any Error)?) {
        let code = (error as? WCError)?.code.rawValue
        let key = ObjectIdentifier(fileTransfer)
        Task { @MainActor in
            guard let tracker = self.trackers.removeValue(forKey: key) else { return }
            tracker.finish(code.map { .failure(.failed(code: $0)) } ?? .success(()))
        }
    }

    func session(_ session: WCSession, didReceive file: WCSessionFile) {
        onFileReceived(ReceivedFile(wcFile: file))
    }
}

/// LocalData-style platform sync of a value too large for userInfo: written to a file and sent with
/// `transferFile`, its key in the metadata; the receiving side stores what arrives under that key.
final class LargeValueSync: Sendable {
    private let values = Mutex<[String: Data]>([:])
    /// Where outgoing values are staged before the session copies them.
    let stagingDirectory: URL

    init(stagingDirectory: URL) {
        self.stagingDirectory = stagingDirectory
    }

    /// Sends `value` for `key` through `connection`.
    @MainActor
    func send(_ value: Data, for key: String, through connection: FileConnection) throws -> FileTransferTracker {
        let url = stagingDirectory.appendingPathComponent("\(key).value")
        try value.write(to: url)
        let tracker = connection.transferFile(url, metadata: ["localDataKey": key, "bytes": value.count])
        // The session holds its own copy once transferFile returned.
        try? FileManager.default.removeItem(at: url)
        return tracker
    }

    /// The receiving side's file handler: reads the file during the callback (it is removed afterwards).
    func receive(_ file: ReceivedFile) {
        guard let key = file.metadata?["localDataKey"] as? String, let data = try? Data(contentsOf: file.fileURL) else { return }
        values.withLock { $0[key] = data }
    }

    /// The value held for `key`.
    func value(for key: String) -> Data? { values.withLock { $0[key] } }
}
