import Dispatch
import Foundation
import Synchronization
import WatchPairWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends a received file's bytes to its spool file as they arrive, keeping their CRC-32C, and makes them
/// durable on request: the reader hands a chunk over and goes on reading, while an earlier window's
/// fdatasync runs.
///
/// Every operation runs in order on one serial queue (shared by the channel's writers, so a writer opened
/// on a new link truncates only after the last link's writes). The file is cut to the durable offset when
/// opened: bytes past it are a crash's or a dropped link's leftovers. The first failure is kept: later
/// appends are skipped and ``sync()`` throws it.
///
/// Bound: the bytes of appends not yet written, which the sender's window bounds (it sends at most
/// `fileWindow` bytes beyond the offset this side acknowledged as durable).
final class FileSpoolWriter: Sendable {
    /// What a ``sync()`` made durable: every byte before `offset`, whose CRC-32C is `checksum`.
    struct Synced: Sendable, Hashable {
        var offset: UInt64
        var checksum: UInt32
    }

    private struct State {
        var descriptor: Int32 = -1
        var written: UInt64
        var checksum: UInt32
        var failure: StoreError?
    }

    let path: String
    private let queue: DispatchQueue
    private let state: Mutex<State>

    /// Opens (creating) the file at `path` on `queue` and cuts it to `offset`, whose bytes have CRC-32C
    /// `checksum`. Returns at once; a failure surfaces at the next ``sync()``.
    init(path: String, at offset: UInt64, checksum: UInt32, queue: DispatchQueue) {
        self.path = path
        self.queue = queue
        state = Mutex(State(written: offset, checksum: checksum))
        queue.async { [self] in
            let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return fail(errno, "opening a received file") }
            guard ftruncate(descriptor, off_t(offset)) == 0 else {
                let code = errno
                closeDescriptor(descriptor)
                return fail(code, "positioning a received file")
            }
            state.withLock { $0.descriptor = descriptor }
        }
    }

    /// Writes `bytes` after everything appended before, and adds them to the checksum.
    func append(_ bytes: Data) {
        queue.async { [self] in
            let (descriptor, offset, checksum) = state.withLock { ($0.failure == nil ? $0.descriptor : -1, $0.written, $0.checksum) }
            guard descriptor >= 0 else { return }
            let failure = bytes.withUnsafeBytes { FileSpool.writeAll(descriptor, $0, at: offset) }
            guard failure == 0 else { return fail(failure, "writing a received file") }
            // The one checksum of these bytes on this side, taken while they are still in the cache.
            let updated = CRC32C.update(checksum, with: bytes)
            state.withLock {
                $0.written += UInt64(bytes.count)
                $0.checksum = updated
            }
        }
    }

    /// Makes every byte appended so far durable (fdatasync), off the caller's thread, and returns their
    /// offset and checksum. Throws the writer's first failure: `.diskFull` (7015) on ENOSPC or EDQUOT,
    /// `.ioFailure` otherwise.
    func sync() async throws(StoreError) -> Synced {
        let result: Result<Synced, StoreError> = await withCheckedContinuation { continuation in
            queue.async { [self] in
                let (descriptor, synced, failure) = state.withLock { ($0.descriptor, Synced(offset: $0.written, checksum: $0.checksum), $0.failure) }
                if let failure { return continuation.resume(returning: .failure(failure)) }
                guard fdatasync(descriptor) == 0 else {
                    fail(errno, "syncing a received file")
                    return continuation.resume(returning: .failure(state.withLock { $0.failure! }))
                }
                continuation.resume(returning: .success(synced))
            }
        }
        return try result.get()
    }

    /// Closes the file once the appends before it are written; later appends and syncs fail.
    func close() {
        queue.async { [self] in
            let descriptor = state.withLock { state -> Int32 in
                defer {
                    state.descriptor = -1
                    if state.failure == nil { state.failure = StoreError(.ioFailure, "the received file is closed", path: path) }
                }
                return state.descriptor
            }
            if descriptor >= 0 { closeDescriptor(descriptor) }
        }
    }

    /// Closes the file if ``close()`` was never called (every queued operation holds the writer, so this
    /// runs after the last of them).
    deinit {
        let descriptor = state.withLock { $0.descriptor }
        if descriptor >= 0 { closeDescriptor(descriptor) }
    }

    private func fail(_ code: Int32, _ what: String) {
        let error = FileSpool.error(code, what, path)
        state.withLock { if $0.failure == nil { $0.failure = error } }
    }
}

/// `close(2)`, out of reach of the writer's own `close()`.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
