import Glibc

/// Why a benchmark step failed: what was attempted, and the `errno` when a system call failed.
///
/// A failed section is reported (table and JSON) and the run goes on with the next section; the exit
/// status is then 1, so a CI job running `--quick` notices a benchmark that no longer works.
struct BenchError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, one sentence.
    var message: String
    /// The `errno` of the failed system call, when one failed.
    var errno: Int32?

    init(_ message: String, errno: Int32? = nil) {
        self.message = message
        self.errno = errno
    }

    /// A failed system call: `"<what>: <strerror> (errno N)"`.
    static func system(_ what: String, errno: Int32) -> BenchError {
        BenchError(what, errno: errno)
    }

    var description: String {
        guard let errno else { return message }
        return "\(message): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
