import Foundation
import WatchConnection
import WatchConnectionTesting
import WatchPairTesting

/// Two linked `FlakySession`s, both activated and recorded as a naive app handles them
/// (`SessionRecorder`); the quirks given are set before activation.
struct FlakyLink {
    let clock = ManualClock()
    let phone: FlakySession
    let watch: FlakySession
    let phoneSeen: SessionRecorder
    let watchSeen: SessionRecorder

    init(phone phoneQuirk: (Quirk, QuirkSetting)? = nil, watch watchQuirk: (Quirk, QuirkSetting)? = nil) {
        (phone, watch) = FlakySession.pair(seed: 4, clock: clock)
        if let (quirk, setting) = phoneQuirk { phone.setQuirk(quirk, setting) }
        if let (quirk, setting) = watchQuirk { watch.setQuirk(quirk, setting) }
        phoneSeen = SessionRecorder(phone)
        watchSeen = SessionRecorder(watch)
    }

    /// Advances the clock by `duration` once a sleeper waits.
    func advance(by duration: Duration) async {
        await clock.waitForSleepers(count: 1)
        clock.advance(by: duration)
    }

    /// Returns once `condition` holds: what the woken tasks do (bounded by the suite's time limit).
    func until(_ condition: @Sendable () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    /// A setting that holds back for exactly `seconds`, at most `count` times.
    static func held(_ seconds: Int, count: Int? = nil) throws -> QuirkSetting {
        try QuirkSetting(count: count, delay: .seconds(seconds) ... .seconds(seconds))
    }
}
