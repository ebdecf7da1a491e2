import CFileWriteback
import Foundation
import Glibc

/// The machine's limit for moving a file between two processes: the same bytes read from a file, written
/// into a Unix stream socket, read out of it and written to another file, fdatasynced once at the end.
///
/// No framing, no store, no checksums: what any file transfer over a Unix socket must at least do. The
/// sending side runs on a thread of its own, so reading and writing overlap as they do between the two
/// daemons (2 cores here: the two daemons get no more parallelism than this).
enum RawFileCopy {
    /// Bytes per `read`/`write`: the size the daemons' spool copy uses too.
    static let bufferSize = 1 << 20
    /// Bytes after which the durable copy starts their writeback: as the daemons' spool copy does
    /// (`FileSpool.writebackBytes`), so the floor stays the best such a copy does here.
    static let writebackBytes = 4 << 20

    /// Copies `source` to `destination` through a socketpair; returns the seconds from the first read to
    /// the destination's fdatasync returning.
    static func copy(_ source: String, to destination: String) throws(BenchError) -> Double {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw BenchError.system("open \(source)", errno: errno) }
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            close(input)
            throw BenchError.system("open \(destination)", errno: errno)
        }
        defer { close(output) }
        let (receiving, sending) = try UnixSockets.pair()
        defer { close(receiving) }
        let start = Monotonic.now()
        let sender = Thread {
            _ = drain(input, into: sending)  // a failure shows as a short copy at the receiving end
            close(input)
            close(sending)
        }
        sender.start()
        if let failure = drain(receiving, into: output) { throw BenchError.system("raw copy to \(destination)", errno: failure) }
        guard fdatasync(output) == 0 else { throw BenchError.system("fdatasync \(destination)", errno: errno) }
        return Monotonic.seconds(start, Monotonic.now())
    }

    /// The promise's own floor: the durable copy `transferFile` makes before it returns (read, write,
    /// fsync, its writeback started every `writebackBytes`, as the daemon's spool copy does), without a
    /// checksum or a store. Returns its seconds.
    static func durableCopy(_ source: String, to destination: String) throws(BenchError) -> Double {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw BenchError.system("open \(source)", errno: errno) }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw BenchError.system("open \(destination)", errno: errno) }
        defer { close(output) }
        let start = Monotonic.now()
        if let failure = drain(input, into: output, writebackEvery: writebackBytes) {
            throw BenchError.system("durable copy to \(destination)", errno: failure)
        }
        guard fsync(output) == 0 else { throw BenchError.system("fsync \(destination)", errno: errno) }
        return Monotonic.seconds(start, Monotonic.now())
    }

    /// The fsyncs the promise adds to the two copies, each on its own (no copy, no store): the sender's
    /// folder (the copy's name must survive power loss), the sender's record of the transfer and the
    /// receiver's record of the verified file, each a small write made durable, as a database commit is.
    /// `folder` holds the records; returns the seconds of all three.
    static func promiseSyncs(in folder: String) throws(BenchError) -> Double {
        let record = folder + "/record.bin"
        let descriptor = open(record, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BenchError.system("open \(record)", errno: errno) }
        defer { close(descriptor) }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw BenchError.system("open \(folder)", errno: errno) }
        defer { close(directory) }
        // Written once before the clock starts: a commit appends to a file that exists.
        let page = [UInt8](repeating: 0x5a, count: 4096)
        guard UnixSockets.writeExactly(descriptor, page, page.count), fdatasync(descriptor) == 0 else {
            throw BenchError.system("write \(record)", errno: errno)
        }
        let start = Monotonic.now()
        guard fsync(directory) == 0 else { throw BenchError.system("fsync \(folder)", errno: errno) }
        for _ in 0..<2 {
            guard pwrite(descriptor, page, page.count, 0) == page.count, fdatasync(descriptor) == 0 else {
                throw BenchError.system("commit to \(record)", errno: errno)
            }
        }
        return Monotonic.seconds(start, Monotonic.now())
    }

    /// Reads `input` to its end and writes every byte to `output`, `bufferSize` at a time, starting the
    /// writeback of each `writebackEvery` bytes written when given; the errno of a failure, or nil.
    private static func drain(_ input: Int32, into output: Int32, writebackEvery: Int? = nil) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        var written = 0, writtenBack = 0
        return buffer.withUnsafeMutableBytes { raw in
            while true {
                let n = read(input, raw.baseAddress!, raw.count)
                if n < 0, errno == EINTR { continue }
                if n < 0 { return errno }
                if n == 0 { return nil }
                guard UnixSockets.writeExactly(output, raw.baseAddress!, n) else { return errno }
                written += n
                if let writebackEvery, written - writtenBack >= writebackEvery {
                    _ = watchpair_start_writeback(output, Int64(writtenBack), Int64(written - writtenBack))
                    writtenBack = written
                }
            }
        }
    }
}
