import Glibc
import WatchPairControlClient

extension BenchError {
    /// wcbench's words for a failure of the control client on `path` (the `errno` kept).
    init(_ error: ControlClientError, path: String) {
        switch error {
        case .system(operation: "socket", let code): self = .system("socket()", errno: code)
        case .system(operation: "connect", ENAMETOOLONG): self = .system("socket path empty or too long: \(path)", errno: ENAMETOOLONG)
        case .system(operation: "connect", let code): self = .system("connect \(path)", errno: code)
        case .system(operation: "send", let code): self = .system("cannot write to \(path)", errno: code)
        case .system(operation: "recv", let code): self = .system("cannot read from \(path)", errno: code)
        case .system(let operation, let code): self = .system("\(operation)()", errno: code)
        case .closed: self.init("\(path): the daemon closed the control connection")
        case .lineTooLong, .invalidLine: self.init("\(path) sent \(error)")
        case .requestTooLong, .tooManyUnreadLines: self.init("\(path): \(error)")
        }
    }
}
