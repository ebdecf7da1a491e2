/// When a daemon sends systemd its `STATUS=` line: a changed line at once, but never two within
/// `minimumInterval`; a change inside the interval is sent when the interval ends.
///
/// Under load the line changes with every transfer, and each update is a datagram to PID 1 plus an
/// engine call; people read the line at human speed. Times are offsets on the service's clock.
struct StatusPacing {
    enum Action: Equatable {
        /// The line is what was last sent: nothing to do until the next change.
        case nothing
        /// Send the line now.
        case send
        /// Too soon after the last send: read the line again at this offset.
        case readAgain(at: Duration)
    }

    let minimumInterval: Duration
    /// The line systemd has, and when it was sent (nil: only the `READY=1` line, sent at start).
    private(set) var sent: String
    private(set) var sentAt: Duration?

    init(minimumInterval: Duration, initial: String) {
        self.minimumInterval = minimumInterval
        self.sent = initial
    }

    /// The current line, read at offset `now`.
    mutating func event(read line: String, at now: Duration) -> Action {
        guard line != sent else { return .nothing }
        if let sentAt, now < sentAt + minimumInterval {
            return .readAgain(at: sentAt + minimumInterval)
        }
        sent = line
        sentAt = now
        return .send
    }
}
