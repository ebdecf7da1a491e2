import Foundation
import Testing
import WatchPairWire

@Suite("Event timestamps")
struct EventTimestampTests {
    static let table: [(Int64, String)] = [
        (0, "1970-01-01T00:00:00.000000Z"),
        (1_795_000_000_000_001, "2026-11-18T11:06:40.000001Z"),
        (1_795_000_000_123_456, "2026-11-18T11:06:40.123456Z"),
        (1_795_000_000_999_999, "2026-11-18T11:06:40.999999Z"),
        (-1, "1969-12-31T23:59:59.999999Z"),
        (951_782_400_000_000, "2000-02-29T00:00:00.000000Z"),
    ]

    @Test(arguments: table)
    func formatsWithSixDigitsAndParsesBack(_ microseconds: Int64, _ text: String) {
        #expect(EventTimestamp.format(microseconds: microseconds) == text)
        #expect(EventTimestamp.parse(text) == microseconds)
    }

    @Test func everyLineHasTheSameWidthSoTextOrderIsTimeOrder() {
        let times: [Int64] = [1_795_000_000_100_000, 1_795_000_000_099_999, 1_795_000_001_000_000, 1_795_000_000_000_010]
        let texts = times.map { EventTimestamp.format(microseconds: $0) }
        #expect(Set(texts.map(\.count)) == [27])
        #expect(texts.sorted() == times.sorted().map { EventTimestamp.format(microseconds: $0) })
    }

    @Test func aDateRoundsToTheNearestMicrosecondAndSurvivesTheTrip() {
        let date = Date(timeIntervalSince1970: 1_795_000_000.1234567)
        let text = EventTimestamp.format(date)
        #expect(text == "2026-11-18T11:06:40.123457Z")
        let back = Date(timeIntervalSince1970: Double(EventTimestamp.parse(text)!) / 1_000_000)
        #expect(EventTimestamp.format(back) == text)
    }

    @Test(arguments: ["", "yesterday", "2026-11-18", "2026-13-01T00:00:00Z", "2026-11-18T11:06:40"])
    func rejectsWhatIsNotATimestamp(_ text: String) {
        #expect(EventTimestamp.parse(text) == nil)
    }

    @Test func offsetsAreConvertedToUTC() {
        #expect(EventTimestamp.parse("2026-11-18T12:06:40.5+01:00") == 1_795_000_000_500_000)
    }
}
