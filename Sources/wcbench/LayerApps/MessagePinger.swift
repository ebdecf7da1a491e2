import Foundation
import WatchConnectivity

/// The phone app's raw `WCSession.sendMessage` round trips: `WCSession.default` activated with a
/// delegate that only wakes waiters, and one 64 B (`pad`) message with a reply handler after the other.
/// The layer section measures these before its typed requests; the wcmodule section measures only these.
@MainActor
final class MessagePinger {
    /// The activated session.
    let session: WCSession
    /// Held here: the session holds its delegate weakly.
    private let states = StateDelegate()
    private let message: [String: Any]
    private let clock = ContinuousClock()

    /// Activates `WCSession.default` and returns once the watch app is reachable. Bounded by wcbench,
    /// which kills the app at its phase deadline.
    init(pad: String) async {
        session = WCSession.default
        message = ["p": pad]
        session.delegate = states
        session.activate()
        let session = session
        await states.waitUntil { session.activationState == .activated && session.isReachable }
    }

    /// `count` round trips, one after the other; each one's time in nanoseconds.
    func roundTrips(_ count: Int) async throws -> [UInt64] {
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let start = clock.now
            _ = try await Self.send(message, on: session)
            samples.append(Self.nanoseconds(start.duration(to: clock.now)))
        }
        return samples
    }

    /// One message with a reply; the reply, or the error handler's error.
    static func send(_ message: [String: Any], on session: WCSession) async throws -> [String: Any] {
        nonisolated(unsafe) let message = message
        return try await withCheckedThrowingContinuation { continuation in
            session.sendMessage(
                message,
                replyHandler: { reply in
                    nonisolated(unsafe) let reply = reply
                    continuation.resume(returning: reply)
                },
                errorHandler: { continuation.resume(throwing: $0) })
        }
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        UInt64(duration.components.seconds) * 1_000_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000)
    }

    /// The phone app of the wcmodule section. Its lines on stdout are wcbench's protocol: after
    /// `settings.warmup` round trips `warm`; wcbench reads both apps' CPU time (and starts its profilers)
    /// and writes `go`; then `settings.roundTrips` round trips: `roundTrips {"samples":[ns…]}`.
    static func runModuleSection(_ settings: LayerDriver.Settings) async throws {
        let pinger = await MessagePinger(pad: settings.pad)
        _ = try await pinger.roundTrips(settings.warmup)
        // wcbench reads the CPU times the window starts from.
        try LayerDriver.gate("warm")
        let samples = try await pinger.roundTrips(settings.roundTrips)
        LayerDriver.say("roundTrips", ["samples": samples])
    }
}
