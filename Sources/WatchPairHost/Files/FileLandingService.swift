import Logging
import ServiceLifecycle
import WatchPairCore

/// Puts each received file in the app's `files/` directory as it arrives, then lets the store forget it:
/// the daemons' way of handing files to their app (docs/Design.md, "File transfers"), where a `WCSession` app has
/// `session(_:didReceive:)`.
///
/// Files are landed oldest first, a page at a time. Landing is idempotent (``AppFilesDirectory``), so a
/// crash between landing a file and the store forgetting it lands it once, not twice. A file that cannot
/// be landed (a full disk, a permission) stays in the store's spool and is tried again when the next file
/// arrives or the daemon restarts; the failure is logged with its errno.
struct FileLandingService: Service {
    /// Received files landed per read of the store.
    static let pageSize = 64

    let engine: PairEngine
    let files: AppFilesDirectory
    let logger: Logger

    /// Lands files until graceful shutdown or cancellation.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            // Woken by received files only: other app content costs this service nothing.
            let arrived = engine.appChanges.signal(.receivedFiles)
            while !Task.isCancelled {
                let seen = arrived.generation
                await landWaiting()
                await arrived.wait(after: seen)
            }
        }
    }

    /// Lands every received file waiting now; stops at the first failure (the order is kept).
    private func landWaiting() async {
        while !Task.isCancelled {
            let page: [IncomingFile]
            do {
                page = try await engine.pendingFiles(limit: Self.pageSize)
            } catch {
                logger.warning("reading received files failed", metadata: ["error": "\(error)"])
                return
            }
            for file in page {
                do {
                    let landed = try files.land(file)
                    try await engine.acknowledgeFile(file.offer.transferId)
                    logger.debug("received file landed", metadata: ["path": "\(landed)"])
                } catch {
                    logger.warning(
                        "a received file could not be put in the files directory",
                        metadata: ["file": "\(file.offer.fileName)", "error": "\(error)"])
                    return
                }
            }
            if page.count < Self.pageSize { return }
        }
    }
}
