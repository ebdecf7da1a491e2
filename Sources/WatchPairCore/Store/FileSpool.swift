import CFileWriteback
import Foundation
import WatchPairWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's file bodies: the sender's copies of accepted files and the receiver's partial and received
/// files, one file each, named by transfer id, under `<state directory>/spool/{outgoing,incoming}/`.
///
/// The database says which files exist; the spool only holds bytes. Every write that a database row will
/// point to is fsynced before that row commits (the copy before its outbox row, a chunk before its durable
/// offset), so after any crash a row never points past what its file holds. The other way round — a file
/// without a row, from a crash between the two — is swept at open (`PairStore.sweepSpool`).
struct FileSpool: Sendable {
    /// Where the sender keeps its copies of accepted files.
    let outgoing: String
    /// Where the receiver keeps partial and received files.
    let incoming: String

    /// Bytes read or copied per system call: large enough that a copy is not call-bound, small enough to
    /// keep the memory of a copy fixed whatever the file's size.
    static let copyBufferSize = 1 << 20

    /// Bytes of a copy after which their writeback to disk is started (``copyIn(from:as:)``): the disk
    /// writes one stretch while the next is copied, instead of all of them in the closing fsync.
    static let writebackBytes: UInt64 = 4 << 20

    /// The spool of the store in `directory`; `create()` makes its folders.
    init(directory: String) {
        let base = directory.hasSuffix("/") ? directory + "spool" : directory + "/spool"
        outgoing = base + "/outgoing"
        incoming = base + "/incoming"
    }

    /// Creates both folders (mode 0700) when absent.
    func create() throws(StoreError) {
        for folder in [outgoing, incoming] {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError(.cannotOpen, "cannot create the file spool: \(error)", path: folder)
            }
        }
    }

    /// The path of the sender's copy of transfer `id`.
    func outgoingPath(_ id: UUID) -> String { outgoing + "/" + id.uuidString }
    /// The path of the receiver's file of transfer `id`.
    func incomingPath(_ id: UUID) -> String { incoming + "/" + id.uuidString }

    /// What `copyIn` made: the size and CRC-32C of the copy.
    struct Copied: Sendable, Hashable {
        var size: UInt64
        var checksum: UInt32
    }

    /// Copies the regular file at `source` to `outgoingPath(id)`, durably (file and folder fsynced), and
    /// returns its size and CRC-32C, computed from the bytes written (so the checksum is of the copy, even
    /// if the app changes its file meanwhile). The copy appears under its final name only when complete.
    /// Every ``writebackBytes`` its writeback is started, so the closing fsync waits only for the last
    /// stretch (a 100 MiB file was accepted in 59–105 ms before, 39–53 ms after; BENCHMARKS.md, *Files*).
    ///
    /// - Throws: `.unreadableFile` (7008) naming `source` when it is missing, unreadable or not a regular
    ///   file (a FIFO is refused without waiting for a writer); `.diskFull` (7015) on ENOSPC or EDQUOT;
    ///   `.ioFailure` otherwise. On any failure nothing is left in the spool.
    func copyIn(from source: String, as id: UUID) throws(StoreError) -> Copied {
        // O_NONBLOCK: opening a FIFO (or a device) would otherwise wait for a writer forever; it is
        // refused below as not a regular file, and a regular file's reads ignore the flag.
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard input >= 0 else { throw Self.sourceError(errno, source) }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw Self.sourceError(errno, source) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw StoreError(.unreadableFile, "\(source) is not a regular file", path: source)
        }
        let final = outgoingPath(id)
        let temporary = final + ".copying"
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw Self.error(errno, "creating the spool copy", temporary) }
        var copied = Copied(size: 0, checksum: 0)
        do throws(StoreError) {
            defer { close(output) }
            var buffer = [UInt8](repeating: 0, count: Self.copyBufferSize)
            var writtenBack: UInt64 = 0
            while true {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { throw Self.sourceError(errno, source) }
                if count == 0 { break }
                copied.checksum = CRC32C.update(copied.checksum, with: buffer[0..<count])
                let failure = buffer.withUnsafeBytes { Self.writeAll(output, UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                if failure != 0 { throw Self.error(failure, "writing the spool copy", temporary) }
                copied.size += UInt64(count)
                if copied.size - writtenBack >= Self.writebackBytes {
                    // Advisory and not waited for: a failure of these writes is the fsync's to report.
                    _ = watchpair_start_writeback(output, Int64(writtenBack), Int64(copied.size - writtenBack))
                    writtenBack = copied.size
                }
            }
            guard fsync(output) == 0 else { throw Self.error(errno, "syncing the spool copy", temporary) }
            guard rename(temporary, final) == 0 else { throw Self.error(errno, "naming the spool copy", final) }
            try syncFolder(outgoing)
        } catch {
            unlink(temporary)
            unlink(final)
            throw error
        }
        return copied
    }

    /// For each range, up to `count` bytes of the file at `path` from `offset` (fewer only at its end).
    func readChunks(_ path: String, _ ranges: [FileChunkRange]) throws(StoreError) -> [Data] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.error(errno, "opening a spooled file", path) }
        defer { close(descriptor) }
        var chunks: [Data] = []
        chunks.reserveCapacity(ranges.count)
        for range in ranges {
            var data = Data(count: range.count)
            var filled = 0
            while filled < range.count {
                let n = data.withUnsafeMutableBytes { bytes in
                    pread(descriptor, bytes.baseAddress! + filled, range.count - filled, off_t(range.offset) + off_t(filled))
                }
                if n < 0, errno == EINTR { continue }
                guard n >= 0 else { throw Self.error(errno, "reading a spooled file", path) }
                if n == 0 { break }
                filled += n
            }
            data.count = filled
            chunks.append(data)
        }
        return chunks
    }

    /// Writes `chunks` one after the other into the file at `path` from `offset`, first cutting the file to
    /// `offset` (bytes past the durable offset are a crash's leftovers), then fsyncs it. Creates the file.
    func writeChunks(_ chunks: [Data], to path: String, at offset: UInt64) throws(StoreError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.error(errno, "opening a received file", path) }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(offset)) == 0, lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
            throw Self.error(errno, "positioning a received file", path)
        }
        for chunk in chunks {
            let failure = chunk.withUnsafeBytes { Self.writeAll(descriptor, $0) }
            if failure != 0 { throw Self.error(failure, "writing a received file", path) }
        }
        guard fdatasync(descriptor) == 0 else { throw Self.error(errno, "syncing a received file", path) }
    }

    /// Removes the file at `path`; a missing file is not an error (removal is how a crash is finished).
    func remove(_ path: String) {
        unlink(path)
    }

    /// The transfer ids of the files in `folder`; names that are not a transfer id (a `.copying` leftover)
    /// are returned as paths to remove.
    func contents(of folder: String) -> (ids: [UUID], strays: [String]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var ids: [UUID] = [], strays: [String] = []
        for name in names {
            if let id = UUID(uuidString: name), id.uuidString == name { ids.append(id) } else { strays.append(folder + "/" + name) }
        }
        return (ids, strays)
    }

    /// fsyncs a folder, so a file created or renamed in it survives power loss.
    func syncFolder(_ folder: String) throws(StoreError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.error(errno, "opening the spool folder", folder) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Self.error(errno, "syncing the spool folder", folder) }
    }

    /// Writes every byte, at the file's position or, given `offset`, from there; returns 0, or the errno of
    /// the failure (a write of 0 bytes counts as ENOSPC).
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: UInt64? = nil) -> Int32 {
        var written = 0
        while written < bytes.count {
            let n = if let offset {
                pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset) + off_t(written))
            } else {
                write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return n < 0 ? errno : ENOSPC }
            written += n
        }
        return 0
    }

    /// A failure on the app's file: it is the caller's parameter that is wrong (7008).
    private static func sourceError(_ code: Int32, _ source: String) -> StoreError {
        StoreError(.unreadableFile, "cannot read \(source): \(String(cString: strerror(code))) (errno \(code))", path: source)
    }

    /// A failure in the spool: a full disk is 7015, anything else an I/O failure; errno kept in the message.
    static func error(_ code: Int32, _ what: String, _ path: String) -> StoreError {
        let kind: StoreError.Kind = code == ENOSPC || code == EDQUOT ? .diskFull : .ioFailure
        return StoreError(kind, "\(what): \(String(cString: strerror(code))) (errno \(code))", path: path)
    }
}
