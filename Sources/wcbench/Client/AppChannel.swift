import Glibc

/// Line-by-line talk with a helper app over one end of a socketpair that is the app's stdin and stdout
/// (its stderr goes to its log file).
final class AppChannel {
    /// What the app is called in errors.
    let name: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Takes ownership of `descriptor`.
    init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    deinit { close(descriptor) }

    /// Writes `line` and a newline.
    func write(_ line: String) throws(BenchError) {
        let bytes = Array((line + "\n").utf8)
        guard bytes.withUnsafeBytes({ UnixSockets.writeExactly(descriptor, $0.baseAddress!, $0.count) }) else {
            throw BenchError.system("\(name): write", errno: errno)
        }
    }

    /// The next line, waiting at most until `deadline`.
    /// - Throws: when the deadline passes or the app closes its end (it exited) first.
    func readLine(deadline: UInt64) throws(BenchError) -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var fd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let rc = poll(&fd, 1, Monotonic.pollTimeout(until: deadline))
            if rc < 0 {
                if errno == EINTR { continue }
                throw BenchError.system("\(name): poll()", errno: errno)
            }
            if rc == 0 {
                if Monotonic.now() >= deadline { throw BenchError("\(name): no line in time") }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw BenchError.system("\(name): read", errno: errno) }
            if n == 0 { throw BenchError("\(name) exited before answering") }
            buffer += chunk[..<n]
        }
    }

    /// The next line, which must start with `word`; its JSON payload (after the word), if any.
    func expect(_ word: String, deadline: UInt64) throws(BenchError) -> String {
        let line = try readLine(deadline: deadline)
        guard line == word || line.hasPrefix(word + " ") else {
            throw BenchError("\(name): expected '\(word)', got '\(line.prefix(200))'")
        }
        return String(line.dropFirst(word.count)).trimmingPrefix(" ").description
    }
}
