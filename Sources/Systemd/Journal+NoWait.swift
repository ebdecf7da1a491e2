#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Journal {
    /// What ``trySend(_:to:)`` did with an entry.
    public enum Attempt: Sendable, Equatable {
        /// journald has it.
        case sent
        /// Sending would have waited (journald's socket is full) or the entry does not fit one datagram:
        /// ``send(_:)`` sends it, waiting, and through a memfd when it is large, as libsystemd does.
        case wouldWait
        /// No journal at `path`, or it refused the entry.
        case failed
    }

    /// Sends one entry as ``send(_:)`` does, but never waits: for a caller on an event loop, which a full
    /// journal socket must not stall (`sd_journal_sendv` blocks until journald reads).
    ///
    /// The datagram is journald's native protocol, as libsystemd writes it: `KEY=value\n` per field, or
    /// `KEY\n`, the value's length as 64-bit little endian, the value and `\n` for a value holding a newline.
    public static func trySend(_ fields: [(String, String)], to path: String = socketPath) -> Attempt {
        trySend(nativeDatagram(JournalFields.payloads(fields)), to: path)
    }

    /// Sends one entry already in the native datagram form (``JournalDatagram``), never waiting.
    public static func trySend(_ datagram: JournalDatagram, to path: String = socketPath) -> Attempt {
        trySend(datagram.bytes, to: path)
    }

    private static func trySend(_ datagram: [UInt8], to path: String) -> Attempt {
        guard !datagram.isEmpty else { return .failed }
        let descriptor = NoWaitSocket.descriptor
        guard descriptor >= 0 else { return .failed }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else { return .failed }
        // Copied from the string's own storage: no array per entry on the loop.
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let sent = datagram.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(
                        descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), $0,
                        socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
        if sent == datagram.count { return .sent }
        switch errno {
        case EAGAIN, EWOULDBLOCK, EMSGSIZE, ENOBUFS: return .wouldWait
        default: return .failed
        }
    }

    /// `KEY=value` payloads in journald's native datagram form. Pure.
    static func nativeDatagram(_ payloads: [String]) -> [UInt8] {
        var datagram = JournalDatagram()
        for payload in payloads {
            let bytes = Array(payload.utf8)
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            datagram.add(name: Array(bytes[..<equals]), value: bytes[(equals + 1)...])
        }
        return datagram.bytes
    }
}

/// The unbound datagram socket ``Journal/trySend(_:to:)`` sends from, made once (as libsystemd keeps one).
private enum NoWaitSocket {
    static let descriptor: Int32 = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
}
