import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Sends structured entries to journald with `sd_journal_sendv`.
///
/// The variadic `sd_journal_send` cannot be called from Swift; every entry here, including those of
/// ``JournaldLogHandler``, goes through ``submit(_:)``.
public enum Journal {
    /// The datagram socket journald reads native entries from.
    public static let socketPath = "/run/systemd/journal/socket"

    /// Whether ``socketPath`` exists and is a socket. `sd_journal_sendv` reports success without
    /// sending anything when the socket is absent, so this check is what detects "no journal".
    public static var isAvailable: Bool {
        var info = stat()
        guard stat(Self.socketPath, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFSOCK
    }

    /// Sends one entry with arbitrary fields, e.g. `[("MESSAGE", "…"), ("MESSAGE_ID", "…"), ("WC_EVENT", "…")]`.
    ///
    /// Names go through ``JournalFields/sanitize(_:)``; a field whose name does not sanitise (including
    /// `UNIT`) is dropped. Values are sent as given (newlines included); repeated names give a
    /// multi-valued field. Pass `SYSLOG_IDENTIFIER` and `PRIORITY` yourself: libsystemd otherwise adds
    /// the executable's name, and journald assumes priority 6 (info).
    /// - Returns: `false` when there is no journal (``isAvailable`` is false) or sending failed.
    @discardableResult
    public static func send(_ fields: [(String, String)]) -> Bool {
        guard Self.isAvailable else { return false }
        return Self.submit(JournalFields.payloads(fields))
    }

    /// Sends prepared `KEY=value` payloads in one `sd_journal_sendv` call, without the availability check.
    /// - Returns: whether libsystemd reported success; `false` for an empty entry.
    static func submit(_ payloads: [String]) -> Bool {
        guard !payloads.isEmpty else { return false }
        // One contiguous buffer keeps every iovec's base pointer valid for the duration of the call.
        var buffer: [UInt8] = []
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(payloads.count)
        for payload in payloads {
            let start = buffer.count
            buffer.append(contentsOf: payload.utf8)
            ranges.append(start..<buffer.count)
        }
        return buffer.withUnsafeMutableBytes { bytes in
            let vectors = ranges.map { range in
                iovec(iov_base: bytes.baseAddress.map { $0 + range.lowerBound }, iov_len: range.count)
            }
            return vectors.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) } >= 0
        }
    }
}
