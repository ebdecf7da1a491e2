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
/// durable on request: the reader writes a chunk where it read it and goes on reading, while an earlier
/// window's fdatasync runs on the writer's queue.
///
/// Appends run on the caller's thread (the link's reader, on its event loop): a chunk goes to the page
/// cache with one `pwrite` and is checksummed while it is still in the CPU's cache, with no hand-off to
/// another thread and no wake-up per chunk. What waits for the disk, ``sync(through:)``, runs on `queue` (shared by
/// the channel's writers), and so does the descriptor's close, after the syncs queued before it. The file
/// is cut to the durable offset when opened: bytes past it are a crash's or a dropped link's leftovers. The
/// first failure is kept: later appends are skipped and ``sync(through:)`` throws it.
///
/// Bound: nothing is buffered here; the bytes not yet durable are in the page cache, at most the sender's
/// window (it sends at most `fileWindow` bytes beyond the offset this side acknowledged as durable).
final class FileSpoolWriter: Sendable {
    /// What a ``sync(through:)`` made durable: every byte before `offset`, whose CRC-32C is `checksum`.
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

    /// Opens (creating) the file at `path` and cuts it to `offset`, whose bytes have CRC-32C `checksum`.
    /// A failure surfaces at the next ``sync(through:)``; `queue` runs the syncs and the close.
    init(path: String, at offset: UInt64, checksum: UInt32, queue: DispatchQueue) {
        self.path = path
        self.queue = queue
        var initial = State(written: offset, checksum: checksum)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            initial.failure = FileSpool.error(errno, "opening a received file", path)
        } else if ftruncate(descriptor, off_t(offset)) != 0 {
            initial.failure = FileSpool.error(errno, "positioning a received file", path)
            closeDescriptor(descriptor)
        } else {
            initial.descriptor = descriptor
        }
        state = Mutex(initial)
    }

    /// Writes `bytes` after everything appended before, and adds them to the checksum.
    func append(_ bytes: Data) {
        // Under the lock: a sync's snapshot sees whole appends only, and a close cannot take the descriptor
        // from under a write.
        state.withLock { state in
            guard state.failure == nil, state.descriptor >= 0 else { return }
            let failure = bytes.withUnsafeBytes { FileSpool.writeAll(state.descriptor, $0, at: state.written) }
            guard failure == 0 else {
                state.failure = FileSpool.error(failure, "writing a received file", path)
                return
            }
            // The one checksum of these bytes on this side, taken while they are still in the cache.
            state.checksum = CRC32C.update(state.checksum, with: bytes)
            state.written += UInt64(bytes.count)
        }
    }

    /// What is written now: the offset after the last append and the checksum of the bytes before it, for
    /// ``sync(through:)``.
    var written: Synced {
        state.withLock { Synced(offset: $0.written, checksum: $0.checksum) }
    }

    /// Makes the bytes before `mark` (a ``written`` of this writer) durable: an fdatasync, off the caller's
    /// thread, which covers them and whatever was appended since. Returns `mark`. Throws the writer's first
    /// failure: `.diskFull` (7015) on ENOSPC or EDQUOT, `.ioFailure` otherwise.
    func sync(through mark: Synced) async throws(StoreError) -> Synced {
        let result: Result<Synced, StoreError> = await withCheckedContinuation { continuation in
            queue.async { [self] in
                let (descriptor, failure) = state.withLock { ($0.descriptor, $0.failure) }
                if let failure { return continuation.resume(returning: .failure(failure)) }
                guard fdatasync(descriptor) == 0 else {
                    let error = FileSpool.error(errno, "syncing a received file", path)
                    state.withLock { if $0.failure == nil { $0.failure = error } }
                    return continuation.resume(returning: .failure(state.withLock { $0.failure! }))
                }
                continuation.resume(returning: .success(mark))
            }
        }
        return try result.get()
    }

    /// Stops the writer at once (later appends are skipped, syncs fail) and closes the file after the syncs
    /// queued before.
    func close() {
        let descriptor = state.withLock { state -> Int32 in
            defer {
                state.descriptor = -1
                if state.failure == nil { state.failure = StoreError(.ioFailure, "the received file is closed", path: path) }
            }
            return state.descriptor
        }
        guard descriptor >= 0 else { return }
        queue.async { closeDescriptor(descriptor) }
    }

    /// Closes the file if ``close()`` was never called (every queued sync holds the writer, so this runs
    /// after the last of them).
    deinit {
        let descriptor = state.withLock { $0.descriptor }
        if descriptor >= 0 { closeDescriptor(descriptor) }
    }
}

/// `close(2)`, out of reach of the writer's own `close()`.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
