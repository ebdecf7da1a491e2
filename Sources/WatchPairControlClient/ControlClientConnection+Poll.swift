import Glibc

extension ControlClientConnection {
    /// Waits with one `poll(2)` until one of `connections` has something to read (bytes, or the end of
    /// the stream) or `interrupt` is readable, at most until `deadline`.
    ///
    /// A connection holding a complete line it has already read counts as readable at once, since `poll`
    /// cannot see it. The poll runs at least once, even at a deadline already passed.
    /// - Returns: the positions in `connections` that are readable, then `connections.count` when
    ///   `interrupt` is; empty when the deadline passed first.
    /// - Throws: `.system(operation: "poll", …)`.
    @inlinable  // Specialized in wcbench's loops, which pass a lazy map of their own connections.
    public static func readable(
        _ connections: some Collection<ControlClientConnection>, interrupt: Int32? = nil, until deadline: some PollDeadline
    ) throws(ControlClientError) -> [Int] {
        var buffered: [Int] = []
        for (position, connection) in connections.enumerated() where connection.hasBufferedLine { buffered.append(position) }
        guard buffered.isEmpty else { return buffered }
        var fds = connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        if let interrupt { fds.append(pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)) }
        while true {
            let ready = poll(&fds, nfds_t(fds.count), deadline.pollTimeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .system(operation: "poll", errno: errno)
            }
            if ready > 0 { return fds.indices.filter { fds[$0].revents != 0 } }
            if deadline.pollTimeout == 0 { return [] }
        }
    }
}
