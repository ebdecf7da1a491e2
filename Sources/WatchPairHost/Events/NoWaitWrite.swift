import Glibc

/// A descriptor written without waiting for its reader (stderr, for ``LoopOutput``), its kind read once.
struct NoWaitWrite: Sendable {
    enum Kind: Sendable {
        /// A regular file, /dev/null and the like: a write never waits for a reader.
        case file
        /// A socket (systemd's stdout stream to journald): `send` with `MSG_DONTWAIT`.
        case socket
        /// A pipe or terminal: written only when `poll` says there is room, at most `PIPE_BUF` at a time.
        case other
    }

    let descriptor: Int32
    let kind: Kind

    init(descriptor: Int32) {
        self.descriptor = descriptor
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: kind = .file
            case S_IFSOCK: kind = .socket
            case S_IFCHR where major(info.st_rdev) == 1: kind = .file  // /dev/null, /dev/zero
            default: kind = .other
            }
        } else {
            kind = .other
        }
    }

    /// Writes what it can of `bytes` without waiting and returns how many bytes are done; a write that
    /// fails (the reader gone) counts as done, as ``writeAll(_:_:)`` drops it.
    func writeSome(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let start = buffer.baseAddress! + offset
                let written: Int
                switch kind {
                case .file:
                    written = Glibc.write(descriptor, start, buffer.count - offset)
                case .socket:
                    written = send(descriptor, start, buffer.count - offset, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                case .other:
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    guard poll(&ready, 1, 0) == 1 else { return offset }
                    // POLLOUT on a pipe means a free page: `PIPE_BUF` bytes fit without waiting.
                    guard ready.revents & Int16(POLLOUT) != 0 else { return buffer.count }
                    written = Glibc.write(descriptor, start, min(buffer.count - offset, Int(PIPE_BUF)))
                }
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    return offset
                } else {
                    return buffer.count
                }
            }
            return offset
        }
    }

    /// Writes `bytes` through `output`: at once what goes without waiting, the rest on its thread.
    func write(_ bytes: [UInt8], through output: LoopOutput) {
        let descriptor = self.descriptor
        output.write {
            let done = writeSome(bytes)
            guard done < bytes.count else { return nil }
            let rest = Array(bytes[done...])
            return { _ = writeAll(descriptor, rest) }
        } whole: {
            _ = writeAll(descriptor, bytes)
        }
    }
}

/// The major device number of `device` (glibc's `gnu_dev_major`, a macro Swift does not import).
private func major(_ device: dev_t) -> UInt64 {
    (UInt64(device) >> 8 & 0xfff) | (UInt64(device) >> 32 & ~0xfff)
}
