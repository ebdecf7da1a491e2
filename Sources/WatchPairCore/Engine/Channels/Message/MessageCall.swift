import WatchPairWire

/// One `sendMessage` call, from its start to its one outcome: a pure state machine.
///
/// States: `linking` (no link yet) → `sent(link)` (the frame is on a link) → `finished`. Every event
/// that ends the call (an answer, the deadline, the link's loss, a failure to link) moves to `finished`
/// and returns `.complete`; in `finished` every event is ignored, so a call has exactly one outcome.
///
/// docs/Design.md, "Messages": one deadline from the call's start bounds link set-up, handshake and reply. Link
/// set-up gets `Deadlines.link`, the shorter of the handshake timeout and the message timeout; the
/// whole call gets `Deadlines.reply`. A deadline while linking is 7007 (the peer is not reachable);
/// a deadline after sending is 7012 (no reply in time).
struct MessageCall: Sendable, Hashable {
    /// When the phases of a call must be over, as offsets from its start.
    struct Deadlines: Sendable, Hashable {
        /// Link set-up and handshake must be done by then.
        let link: Duration
        /// The call's outcome must be known by then.
        let reply: Duration

        init(timeout: Duration, handshakeTimeout: Duration) {
            reply = timeout
            link = min(timeout, handshakeTimeout)
        }
    }

    enum State: Sendable, Hashable {
        case linking
        case sent(linkId: UInt64)
        case finished
    }

    enum Event: Sendable, Hashable {
        /// A usable link was found or made.
        case linkReady(linkId: UInt64)
        /// No link can be had (not reachable, wake rules, not activated, link deadline passed).
        case linkUnavailable(WCFailure)
        /// Writing the message frame failed.
        case sendFailed(String)
        /// The peer answered: its reply, or its error frame.
        case answered(Result<MessageBody, WCFailure>)
        /// The link the message went out on closed.
        case linkClosed(linkId: UInt64)
        /// `Deadlines.reply` passed.
        case deadline(Duration)
        /// The caller stopped waiting.
        case cancelled
    }

    enum Action: Sendable, Hashable {
        /// Write the message frame on this link.
        case send(linkId: UInt64)
        /// Report this outcome to the caller; the call is over.
        case complete(Result<MessageBody, WCFailure>)
        /// Nothing to do (e.g. a late reply after the timeout).
        case none
    }

    private(set) var state: State = .linking

    mutating func event(_ event: Event) -> Action {
        switch (state, event) {
        case (.finished, _):
            return .none
        case (.linking, .linkReady(let linkId)):
            state = .sent(linkId: linkId)
            return .send(linkId: linkId)
        case (.linking, .linkUnavailable(let failure)):
            return finish(.failure(failure))
        case (.linking, .deadline(let timeout)):
            return finish(.failure(WCFailure(.notReachable, "no link to the peer within \(timeout)")))
        case (.sent, .sendFailed(let reason)):
            return finish(.failure(WCFailure(.notReachable, "the link closed while sending: \(reason)")))
        case (.sent, .answered(let result)):
            return finish(result)
        case (.sent(let sentOn), .linkClosed(let linkId)) where sentOn == linkId:
            return finish(.failure(WCFailure(.deliveryFailed, "the link to the peer closed before an answer arrived")))
        case (.sent, .deadline(let timeout)):
            return finish(.failure(WCFailure(.messageReplyTimedOut, "no reply within \(timeout)")))
        case (_, .cancelled):
            return finish(.failure(WCFailure(.deliveryFailed, "the sender stopped waiting (cancelled)")))
        case (.linking, .sendFailed), (.linking, .answered), (.linking, .linkClosed),
             (.sent, .linkReady), (.sent, .linkUnavailable), (.sent, .linkClosed):
            // Cannot happen in this order (an answer needs a sent frame), or concerns another link.
            return .none
        }
    }

    private mutating func finish(_ result: Result<MessageBody, WCFailure>) -> Action {
        state = .finished
        return .complete(result)
    }
}
