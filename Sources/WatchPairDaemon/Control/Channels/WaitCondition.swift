/// What a `wait` request blocks for (`wcctl wait`, docs/ControlProtocol.md).
///
/// The daemon checks the condition against its own state each time that state changes, and answers
/// as soon as it holds or the request's timeout passes (docs/ControlProtocol.md, `wait`).
enum WaitCondition: String, Sendable, Hashable, CaseIterable {
    /// The local app is up: its session is activated and its control socket answers.
    case ready
    /// The peer app is reachable (`isReachable`, docs/Lifecycle.md).
    case reachable
    /// Nothing outstanding: no userInfo transfer waits for the peer, and the peer holds the newest
    /// context sent.
    case drained
    /// No link activity: drained, no live message in flight either way, and no link being opened.
    case idle
    /// The app has a message handler: a `receive --follow` client that handles messages is attached,
    /// so a message sent now is delivered to it instead of failing with 7014.
    case handler
}
