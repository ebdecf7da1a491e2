import Glibc
import WatchPairWire

/// The system calls of a client's Unix-domain stream socket: connect to a path, send, receive. Plain
/// POSIX calls on a descriptor the caller owns; no event loop.
///
/// The socket stays in blocking mode; each call says whether it may wait (`MSG_DONTWAIT` when not), so
/// one descriptor serves wcctl's blocking reads, wcbench's poll loop and the async face's own thread.
/// Sends use `MSG_NOSIGNAL`: a peer that has gone away is `EPIPE`, never a `SIGPIPE`.
public enum UnixStreamSocket {
    /// Connects a new close-on-exec stream socket to `path` and returns its descriptor.
    ///
    /// - Throws: `.system` with the `errno` of `socket` or `connect` (`ENOENT`: no socket file;
    ///   `ECONNREFUSED`: nobody listening; `ENAMETOOLONG`: the path does not fit `sun_path`).
    public static func connect(path: String) throws(ControlClientError) -> Int32 {
        guard let address = UnixSocketAddress(path: path) else {
            throw .system(operation: "connect", errno: path.isEmpty ? ENOENT : ENAMETOOLONG)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(operation: "socket", errno: errno) }
        while true {
            if address.withSockaddr({ Glibc.connect(fd, $0, $1) }) == 0 { return fd }
            let code = errno
            if code == EINTR { continue }
            _ = close(fd)
            throw .system(operation: "connect", errno: code)
        }
    }

    /// Sends `bytes` from `offset` on: all of them when `waiting`, else what the socket takes now.
    ///
    /// - Returns: the bytes sent (fewer than asked only when not `waiting` and the socket is full).
    /// - Throws: `.system(operation: "send", …)`; `EPIPE`/`ECONNRESET` when the peer has gone away.
    @discardableResult
    public static func send(_ fd: Int32, _ bytes: [UInt8], from offset: Int = 0, waiting: Bool) throws(ControlClientError) -> Int {
        let flags = Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT))
        let (position, failure): (Int, Int32?) = bytes.withUnsafeBytes { raw in
            var position = offset
            while position < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + position, raw.count - position, flags)
                if n >= 0 {
                    position += n
                } else if errno != EINTR {
                    return (position, errno == EAGAIN && !waiting ? nil : errno)
                }
            }
            return (position, nil)
        }
        if let failure { throw .system(operation: "send", errno: failure) }
        return position - offset
    }

    /// Receives what has arrived (at most `buffer.count` bytes) without waiting.
    ///
    /// - Returns: the byte count, 0 at end of stream (a reset reads as one), nil when nothing is there.
    /// - Throws: `.system(operation: "recv", …)`.
    public static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(ControlClientError) -> Int? {
        while true {
            let n = recv(fd, buffer.baseAddress!, buffer.count, Int32(MSG_DONTWAIT))
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN: return nil
            case ECONNRESET: return 0
            default: throw .system(operation: "recv", errno: errno)
            }
        }
    }
}
