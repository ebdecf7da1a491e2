import Glibc
import WatchPairControlClient

/// The few raw Unix-socket calls wcbench needs: connect to a path, make a connected pair.
enum UnixSockets {
    /// Connects a blocking stream socket to `path` (``UnixStreamSocket/connect(path:)``); the descriptor
    /// is close-on-exec.
    ///
    /// - Throws: `BenchError` with the `errno` of `socket`/`connect` (`ENOENT`, `ECONNREFUSED`, ...).
    static func connect(_ path: String) throws(BenchError) -> Int32 {
        do {
            return try UnixStreamSocket.connect(path: path)
        } catch {
            throw BenchError(error, path: path)
        }
    }

    /// A connected pair of stream sockets, both ends close-on-exec: a child gets an end only as a
    /// descriptor `ChildProcess.spawn` hands over, so no child holds another's socket open.
    static func pair() throws(BenchError) -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw BenchError.system("socketpair()", errno: errno)
        }
        return (fds[0], fds[1])
    }

    /// Reads exactly `count` bytes into `buffer` (blocking). False at end of stream.
    static func readExactly(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Bool {
        var got = 0
        while got < count {
            let n = read(fd, buffer + got, count - got)
            if n > 0 {
                got += n
            } else if n == 0 || errno != EINTR {
                return false
            }
        }
        return true
    }

    /// Writes exactly `count` bytes from `buffer` (blocking). False when the peer has gone.
    static func writeExactly(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Bool {
        var put = 0
        while put < count {
            let n = write(fd, buffer + put, count - put)
            if n > 0 {
                put += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
