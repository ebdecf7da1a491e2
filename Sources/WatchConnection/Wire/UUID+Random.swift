import Foundation

extension UUID {
    /// A random (version 4) request id.
    ///
    /// Why not `UUID()` on Linux: there Foundation opens, reads and closes /dev/urandom for every id, and a
    /// profile of typed requests put that `open` at about a tenth of the sender's CPU per request
    /// (BENCHMARKS.md, "The reliability layer"). `random(using:)` with the system generator draws the same
    /// bits with `getrandom(2)` and no file descriptor. Elsewhere `UUID()` is already that cheap.
    package static func random() -> UUID {
        #if os(Linux)
        var generator = SystemRandomNumberGenerator()
        return UUID.random(using: &generator)
        #else
        return UUID()
        #endif
    }
}
