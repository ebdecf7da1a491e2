import Foundation
import Testing
import WatchPairCore
import WatchPairTesting

/// ``WallClock``: wall time that starts at its origin and moves only as its clock does.
@Suite("wall clock")
struct WallClockTests {
    @Test("starts at the origin and follows the manual clock's steps, whenever it is made", arguments: [
        // (the manual clock's time when the wall clock is made, the step after) → wall time minus the origin
        (Duration.zero, Duration.zero, 0.0),
        (.zero, .milliseconds(1_500), 1.5),
        (.seconds(3_600), .zero, 0),
        (.seconds(3_600), .seconds(86_400), 86_400),
    ])
    func followsItsClock(before: Duration, step: Duration, moved: Double) {
        let clock = ManualClock()
        clock.advance(by: before)
        let wall = WallClock(clock, origin: ManualClock.wallClockOrigin)
        clock.advance(by: step)
        #expect(wall.now().timeIntervalSince(ManualClock.wallClockOrigin) == moved)
    }

    @Test("the test kit's origin is noon UTC, half a day from either midnight")
    func originIsNoon() {
        #expect(ManualClock.wallClockOrigin.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) == 43_200)
    }
}
