import Foundation
import Synchronization
import WatchConnection
// Re-exported: `Quirk` and `QuirkSetting` are the vocabulary of `setQuirk(_:_:)`.
@_exported import WatchPairQuirks

/// A `WCSessionProviding` with faults you choose: failure probability, lost replies, latency,
/// reachability flapping, scripted faults, every knob of WatchConnectivitySwift's `FlakyWCSession`
/// (`FlakySession+FlakyWCSession.swift`) and the ten quirks of real devices (`setQuirk(_:_:)`), all
/// seeded (the same seed and the same calls give the same outcomes: `history` and `quirkInjections`
/// replay) and all time from an injected clock.
///
/// ```swift
/// let flakySession = FlakySession()            // loopback: the connection answers itself
/// flakySession.failureProbability = 0.3
/// let connection = WatchConnection(session: flakySession)
///
/// let (phone, watch) = FlakySession.pair(seed: 7, clock: clock)   // two apps, one link
/// phone.setQuirk(.lateReply)                                      // docs/Quirks.md
/// ```
///
/// A lone `FlakySession` is a loopback: what it sends arrives at itself, so one `WatchConnection`
/// both sends and handles. `pair` links two sessions. Each live message draws its fate in this order:
/// not activated: 7004; `isStuck`: never answered; the `phantomReachability` quirk: 7007; not reachable
/// (or hidden by `asymmetricReachability`): 7007; the next scripted fault; else `failureProbability`
/// (fails before delivery with one of `possibleErrors`, 7014 unless set); else `replyLossProbability`
/// (delivered and handled, reply lost: 7011); else delivered, after `latency` plus, with
/// `delayProbability`, a delay drawn from `delayRange`. A reply then meets the reply quirks
/// (`lostReply`, `lateReply`, `replyAndError`, in that order). userInfo and context always arrive
/// (they are durable channels), after `latency`, through the arrival quirks. Latency zero delivers
/// synchronously, so a manual clock need not move.
public final class FlakySession: WCSessionProviding, Sendable {
    /// What happens to one live message.
    public enum Fault: Sendable, Hashable {
        /// Delivered; the reply comes back.
        case deliver
        /// Fails before delivery with this `WCErrorDomain` code (e.g. 7007, 7014, 7012).
        case fail(code: Int)
        /// Delivered and handled, but the reply is lost: the sender gets 7011.
        case loseReply
        /// Never answered, neither reply nor error: the session is stuck (`isStuck`).
        case stuck
    }

    let state: Mutex<FlakySessionState>
    let sleep: @Sendable (Duration) async throws -> Void
    /// Time since the session was made, on the injected clock (reply timeouts count on it).
    let elapsed: @Sendable () -> Duration

    /// A loopback session with faults drawn from `seed`, latency on `clock`.
    public init(seed: UInt64 = 0, clock: any Clock<Duration> = ContinuousClock()) {
        state = Mutex(FlakySessionState(seed: seed))
        (sleep, elapsed) = Self.timing(clock)
    }

    private static func timing<C: Clock<Duration>>(
        _ clock: C
    ) -> (@Sendable (Duration) async throws -> Void, @Sendable () -> Duration) {
        let start = clock.now
        return ({ try await clock.sleep(until: clock.now.advanced(by: $0), tolerance: nil) }, { start.duration(to: clock.now) })
    }

    /// Two linked sessions (the phone app's and the watch app's), seeded `seed` and `seed + 1`.
    public static func pair(seed: UInt64 = 0, clock: any Clock<Duration> = ContinuousClock()) -> (FlakySession, FlakySession) {
        let phone = FlakySession(seed: seed, clock: clock)
        let watch = FlakySession(seed: seed &+ 1, clock: clock)
        phone.state.withLock {
            $0.peer = watch
            $0.loopback = false
        }
        watch.state.withLock {
            $0.peer = phone
            $0.loopback = false
        }
        return (phone, watch)
    }

    /// Where what this session sends arrives: itself (loopback) or its peer (nil once the peer is gone).
    var target: FlakySession? {
        state.withLock { $0.loopback ? self : $0.peer }
    }

    func report(_ event: SessionEvent) {
        state.withLock { $0.receiver }?(event)
    }

    /// Runs `body` after `delay` on the clock; at once (synchronously) when the delay is zero.
    func later(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
        guard delay > .zero else { return body() }
        let sleep = self.sleep
        Task {
            try? await sleep(delay)
            body()
        }
    }

    /// An error of `WCErrorDomain` with `code`, as `WCSession` reports it.
    public static func error(_ code: Int) -> NSError {
        NSError(domain: "WCErrorDomain", code: code, userInfo: [NSLocalizedDescriptionKey: "FlakySession fault \(code)"])
    }
}
