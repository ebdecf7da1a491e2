/// The executables a run uses.
struct Binaries: Sendable {
    var phoned: String
    var watchd: String
    /// wcbench itself (re-executed for the helper processes).
    var wcbench: String
    /// `systemd-socket-activate`, when installed.
    var socketActivate: String?
    /// `perf`, when installed (exact fsync counts).
    var perf: String?
    /// A command the daemons run under (`--daemon-wrapper`, e.g. valgrind), first element an absolute path.
    var wrapper: [String] = []

    /// How much slower everything is expected to be: time limits are multiplied by it.
    var slowdown: Double { wrapper.isEmpty ? 1 : 50 }
}
