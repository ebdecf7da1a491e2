/// Where a connection hands its reads when its consumer takes them on the thread that reads the socket
/// (``TransportConnection/readDirectly(on:_:)``), with no task between the socket and the consumer.
public struct DirectReads: Sendable {
    /// One read, in order; called on the connection's event loop. False pauses reading the socket (the
    /// consumer is behind) until ``TransportConnection/resumeReading()``.
    public var received: @Sendable ([UInt8]) -> Bool
    /// The input ended: cleanly (end of file, half-closure, closed), or with the socket's error. Called
    /// once, after every read, possibly from inside a call that closes the connection: it must only
    /// record the end and wake whoever waits, never reenter what closed it.
    public var ended: @Sendable (Result<Void, TransportError>) -> Void

    /// A consumer of reads and of the end.
    public init(
        received: @escaping @Sendable ([UInt8]) -> Bool, ended: @escaping @Sendable (Result<Void, TransportError>) -> Void
    ) {
        self.received = received
        self.ended = ended
    }
}

extension TransportConnection {
    /// Not supported: read ``inbound``.
    public func readDirectly(on executor: any SerialExecutor, _ reads: DirectReads) -> Bool { false }

    /// Nothing to resume for a transport that never reads directly.
    public func resumeReading() {}
}
