/// The long help texts: what a new user needs to drive the two apps from a shell.
///
/// Lines stay under 80 columns so ArgumentParser prints them as written.
enum HelpText {
    /// Indents every line by two spaces (for sections of the root help).
    static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }

    static let message = """
        message: live. Both apps must be running (a message from the watch
          launches a stopped phone app; one from the phone never launches the
          watch app). Delivered at once, in order, never stored. The peer
          replies or the send fails: 7007 notReachable at once when the peer is
          not reachable, 7012 when no reply comes in time, 7014 when the peer
          has no handler for that kind of message.
        """

    static let userInfo = """
        userInfo: queued and durable. Stored on both ends, delivered in FIFO
          order, each transfer exactly once, when the other app next runs (it is
          launched in the background to receive). Survives crashes and restarts.
        """

    static let applicationContext = """
        applicationContext: latest state only. The receiver ends at the newest
          value; intermediate values may be skipped. An update identical to the
          last one sent is not re-sent; {} clears the context.
        """

    static let values = """
        VALUES
          Payloads are JSON objects of property-list values: strings, numbers,
          booleans, arrays, objects, plus {"$data":"<base64>"} for bytes and
          {"$date":"2024-05-01T12:00:00Z"} for dates. null is not allowed (7010).
          Every JSON argument may also be @FILE (read from FILE) or - (read from
          standard input), e.g. wcctl context set @context.json
        """

    static let exitStatus = """
        EXIT STATUS
          0    success
          1    local failure: unreadable file, closed output, permission denied,
               daemon not answering
          2    usage: unknown command or flag, bad argument
          3    the daemon is not running (no control socket), or it went away
          4    wait: the condition did not hold within --timeout
          1xx  a WCError: 100 + (code - 7000), e.g. 107 notReachable,
               108 invalidParameter, 109 payloadTooLarge, 112 messageReplyTimedOut
          Errors are one line on stderr: wcctl: error 7007 (notReachable): ...
          Output closed by its reader (wcctl transfers | head -1) ends wcctl
          quietly with 0.
        """

    static let root = """
        wcctl is the user interface of the two WatchPair apps, phoned (the iPhone
        app) and watchd (the Apple Watch app): it sends, transfers, sets context,
        shows what arrives and inspects state, through the daemon's control socket.

        THE THREE CHANNELS
        \(indented(message))
        \(indented(userInfo))
        \(indented(applicationContext))

        \(values)

        OUTPUT
          Short text for people by default. With --json: one JSON object per line,
          keys sorted. receive always prints JSON lines.

        \(exitStatus)

        ENVIRONMENT
          WCCTL_SIDE         phone or watch when --side is not given (default phone)
          WCCTL_PAIR         the pair when --pair is not given (default: the
                             default pair, phoned.service and watchd.service)
          WCCTL_CONTROL      the control socket when --control is not given
          WCCTL_RUNTIME_DIR  directory of phoned.ctl and watchd.ctl
                             (default /run/watchpair; pair NAME's are in NAME/)

        EXAMPLES
          wcctl status
          wcctl --side watch receive --follow --reply '{"pong":true}' &
          wcctl --side watch wait handler          # its handler is attached
          wcctl send '{"ping":1}'                 # prints {"pong":true}
          wcctl transfer '{"workout":{"km":5.2}}'  # prints the transfer id
          wcctl --side watch receive               # prints it, once
          wcctl context set '{"theme":"dark"}'
          wcctl --side watch context get --received
          wcctl --pair ci-3 status                 # pair ci-3 (phoned@ci-3)
        """
}
