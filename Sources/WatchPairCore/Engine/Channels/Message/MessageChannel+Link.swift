import WatchPairWire

extension MessageChannel {
    /// The link for a live message, made on demand where the wake rules allow it (``MessageWakeRule``),
    /// within `limit` (link set-up and handshake included): past it, 7007.
    static func linkForMessage(within limit: Duration, _ engine: isolated PairEngine) async -> Result<Link, WCFailure> {
        if let link = engine.current {
            return usable(link, role: engine.role)
        }
        let clock = engine.clock
        let peer = engine.role.peer.daemonName
        return await withTaskGroup(of: Result<Link, WCFailure>?.self) { group in
            group.addTask {
                guard (try? await clock.sleep(for: limit)) != nil else { return nil }
                return .failure(WCFailure(.notReachable, "no link to \(peer) within \(limit)"))
            }
            group.addTask { await makeLink(engine) }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(WCFailure(.notReachable, "the message was cancelled before a link to \(peer) was made"))
        }
    }

    /// Waits for a link already handshaking (opened by either side), else opens one; no deadline of its
    /// own (``linkForMessage(within:_:)`` bounds it) but stops at cancellation.
    private static func makeLink(_ engine: isolated PairEngine) async -> Result<Link, WCFailure> {
        let peer = engine.role.peer.daemonName
        if engine.current == nil, let opening = engine.links.values.first(where: { $0.established.current == nil }) {
            _ = await opening.established.wait()
        }
        if engine.current == nil, !Task.isCancelled {
            await engine.driver.probePeer(engine)
            if let refusal = MessageWakeRule.mayConnect(role: engine.role, peer: engine.peerPresence) {
                return .failure(refusal)
            }
            let connection: any TransportConnection
            do {
                connection = try await engine.transport.connect()
            } catch {
                return .failure(WCFailure(.notReachable, "cannot connect to \(peer): \(error)"))
            }
            let link: Link
            do {
                link = try engine.spawnLink(connection)
            } catch {
                await connection.close()
                return .failure(error)
            }
            guard await link.established.wait() ?? false else {
                return .failure(WCFailure(.notReachable, "the link to \(peer) could not be established"))
            }
        }
        guard let link = engine.current else {
            return .failure(WCFailure(.notReachable, "the link to \(peer) closed"))
        }
        return usable(link, role: engine.role)
    }

    static func usable(_ link: Link, role: Role) -> Result<Link, WCFailure> {
        if let refusal = MessageWakeRule.mayUse(role: role, peerLaunch: link.peerHello?.launch) {
            return .failure(refusal)
        }
        return .success(link)
    }
}
