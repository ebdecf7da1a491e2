extension InMemoryNetwork {
    /// Whether nothing is in flight on this network: no activation is running, and on every open
    /// connection, in both directions, every written byte has been read and the reader is parked
    /// waiting for more (it has finished with the last chunk it got).
    ///
    /// A frame counts as in flight until its reader comes back for the next one, so the engine's handling
    /// of a frame it read (its store writes included) counts too. What the self-driving clock asks
    /// before it moves time (``activity`` tells it when to ask again).
    package var isQuiet: Bool {
        let (connections, activating) = state.withLock { state in
            (Array(state.connections.values), state.endpoints.values.contains { $0.activating })
        }
        // The pipes have locks of their own: read them outside the network's.
        return !activating && connections.allSatisfy { $0.client.isInboundQuiet && $0.server.isInboundQuiet }
    }
}
