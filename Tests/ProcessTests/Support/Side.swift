/// One of the two apps, as the tests name them.
enum Side: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The iPhone app, `phoned`.
    case phone
    /// The Apple Watch app, `watchd`.
    case watch

    /// The executable and file-name stem: `phoned` or `watchd`.
    var daemon: String { self == .phone ? "phoned" : "watchd" }
    /// The other side.
    var peer: Side { self == .phone ? .watch : .phone }
    /// The daemon's name.
    var description: String { daemon }
}

/// How a daemon is started.
enum Activation: Sendable {
    /// Run directly: it binds its own link socket and starts in the foreground.
    case direct
    /// Under `systemd-socket-activate -l <link> --fdname=<daemon>`: it is executed when the peer first
    /// connects, adopts the passed listener and (with `launch: auto`) starts in the background.
    case socketActivated
}
