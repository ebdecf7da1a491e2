import WatchPairWire

/// Faults named after what a test means by them; each is one ``FaultInjectingTransport/inject(_:on:from:count:)``.
/// `side` is the side that *writes* what is hit (nil: either side of a linked pair).
extension FaultInjectingTransport {
    /// Loses the next answer `side` writes to a message (``FaultTarget/reply``): the message is
    /// delivered and handled, but its sender never hears back; its reply handler never runs, and its
    /// error handler gets 7012 (`messageReplyTimedOut`) once its reply timeout passes on the clock.
    public func loseNextReply(from side: Role? = nil) {
        inject(.drop, on: .reply, from: side)
    }

    /// Holds the next `count` `target` frames `side` writes (e.g. ``FaultTarget/message`` or
    /// ``FaultTarget/userInfo``) for `duration` on this transport's clock, then delivers them.
    ///
    /// The link is a byte stream: what that side writes after a held frame on the same connection waits
    /// behind it and arrives after it, in order, as on a slow socket. The other direction, and other
    /// connections, keep moving. Advance a ``ManualClock`` by `duration` once ``appliedFaults`` reports
    /// the hold. A hold longer than the keep-alive timeout (6 s by default), stepped in small steps,
    /// looks to the peer like a stalled link, as it would on a real one.
    public func delayNext(_ target: FaultTarget, from side: Role? = nil, by duration: Duration, count: Int = 1) {
        inject(.delay(duration), on: target, from: side, count: count)
    }

    /// Breaks the link in the middle of a transfer: the `target` frames `side` writes pass until
    /// `passing` of them have gone, then half of the next one is written and the connection closes, as
    /// when a process dies mid-frame. The peer sees the stream end inside a frame; the writer sees
    /// `TransportError(.connectionClosed, …)`, and the engines resume the transfer on the next link.
    ///
    /// - Parameter target: What is cut: ``FaultTarget/file`` by default (`.frame(.fileChunk)` for the
    ///   data itself), or ``FaultTarget/userInfo``.
    public func dropLinkMidTransfer(of target: FaultTarget = .file, from side: Role? = nil, afterPassing passing: Int = 0) {
        inject(.none, on: target, from: side, count: passing)
        inject(.disconnectMidFrame, on: target, from: side)
    }
}
