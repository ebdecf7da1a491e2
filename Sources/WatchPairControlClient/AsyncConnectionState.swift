import WatchPairWire

/// What an ``AsyncControlClientConnection``'s tasks and its thread share, under one lock: the lines read and
/// not yet taken, the tasks waiting for lines, the writes waiting for the socket, and how it ended.
///
/// Bounds: at most `maxUnreadLines` unread lines (plus one read's worth); at that point the connection
/// ends with `.tooManyUnreadLines` and the thread stops reading. Writes are not bounded here: each is
/// awaited by the task that queued it.
struct AsyncConnectionState {
    /// The result of looking for a line.
    enum Take {
        /// The first unread line that matched, now taken.
        case line(ControlResponse)
        /// None matched, and none will come.
        case ended(ControlClientError)
        /// None matched yet: wait for a delivery after this generation.
        case wait(generation: Int)
    }

    /// A write the thread has not finished; `done` is resumed once the kernel has every byte.
    struct Write {
        var bytes: [UInt8]
        var done: CheckedContinuation<Void, any Error>
    }

    let maxUnreadLines: Int
    /// Lines read and not taken, in arrival order.
    private(set) var unread: [ControlResponse] = []
    /// Why no more lines come, once none will.
    private(set) var end: ControlClientError?
    /// Counts deliveries: a task that found nothing waits only if nothing came since it looked.
    private(set) var generation = 0
    /// Tasks waiting for the next delivery, by ticket (so a cancelled one can leave).
    var readers: [Int: CheckedContinuation<Void, Never>] = [:]
    /// The last ticket handed out.
    var lastTicket = 0
    /// Writes in order; the first is `written` bytes along.
    var writes: [Write] = []
    var written = 0
    /// `close()` was called (or the connection deinitialized): the thread finishes.
    var stopping = false
    /// The thread has finished: the socket is closed, nothing is read or written any more.
    private(set) var finished = false
    /// Tasks waiting in `close()` for the thread to finish.
    var closers: [CheckedContinuation<Void, Never>] = []

    init(maxUnreadLines: Int) {
        self.maxUnreadLines = maxUnreadLines
    }

    /// Whether the thread should still read from the socket.
    var reading: Bool { end == nil }

    /// Takes the first unread line that satisfies `predicate`.
    mutating func take(where predicate: (ControlResponse) throws -> Bool) rethrows -> Take {
        if let index = try unread.firstIndex(where: predicate) { return .line(unread.remove(at: index)) }
        if let end { return .ended(end) }
        return .wait(generation: generation)
    }

    /// Takes every unread line once the daemon has closed the connection; nil before.
    ///
    /// - Throws: how the connection ended, when that was not the daemon closing it.
    mutating func takeAll() throws(ControlClientError) -> [ControlResponse]? {
        guard let end else { return nil }
        guard end == .closed else { throw end }
        defer { unread = [] }
        return unread
    }

    /// Adds lines the thread read, and `end` when the stream ended with them.
    ///
    /// - Returns: the tasks to wake.
    mutating func deliver(_ lines: [ControlResponse], end: ControlClientError?) -> [CheckedContinuation<Void, Never>] {
        unread += lines
        if self.end == nil { self.end = end }
        if self.end == nil && unread.count >= maxUnreadLines { self.end = .tooManyUnreadLines(limit: maxUnreadLines) }
        generation += 1
        defer { readers = [:] }
        return Array(readers.values)
    }

    /// Marks the thread finished: what waits for lines, writes or the close is handed back to resume.
    mutating func finish() -> (
        readers: [CheckedContinuation<Void, Never>], writes: [Write], closers: [CheckedContinuation<Void, Never>]
    ) {
        finished = true
        let readers = deliver([], end: .closed)
        defer {
            writes = []
            written = 0
            closers = []
        }
        return (readers, writes, closers)
    }
}
