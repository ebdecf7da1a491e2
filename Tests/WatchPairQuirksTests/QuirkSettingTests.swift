import Testing
import WatchPairQuirks

@Suite("quirk settings")
struct QuirkSettingTests {
    @Test("bad settings are refused with the reason", arguments: [
        // (probability, count) → error
        (1.5, Int?.none, QuirkError.probabilityOutOfRange(1.5)),
        (-0.1, nil, .probabilityOutOfRange(-0.1)),
        (1, 0, .countNotPositive(0)),
        (0.5, -3, .countNotPositive(-3)),
    ])
    func refused(probability: Double, count: Int?, expected: QuirkError) {
        #expect(throws: expected) { try QuirkSetting(probability: probability, count: count) }
    }

    @Test("a probability that is not a number is refused")
    func notANumber() {
        #expect(throws: QuirkError.self) { try QuirkSetting(probability: .nan) }
    }

    @Test("delays read as commands spell them, and print back the same", arguments: [
        ("2s", Duration.seconds(2) ... .seconds(2), "2s"),
        ("500ms...3s", .milliseconds(500) ... .seconds(3), "500ms...3s"),
        ("1.5s", .milliseconds(1500) ... .milliseconds(1500), "1500ms"),
        ("1m", .seconds(60) ... .seconds(60), "60s"),
        ("0s...250ms", .zero ... .milliseconds(250), "0s...250ms"),
        ("0.5", .milliseconds(500) ... .milliseconds(500), "500ms"),
        ("1...2.5", .seconds(1) ... .milliseconds(2500), "1s...2500ms"),
    ])
    func delay(text: String, expected: ClosedRange<Duration>, printed: String) throws {
        let range = try QuirkSetting.delay(parsing: text)
        #expect(range == expected)
        #expect(QuirkSetting.text(range) == printed)
        #expect(try QuirkSetting.delay(parsing: printed) == expected)
    }

    @Test("bad delays are refused", arguments: ["", "3s...1s", "-1s", "1s...2s...3s", "fast", "1h", "nan", "-2", "1e12"])
    func badDelay(text: String) {
        #expect(throws: QuirkError.invalidDelay(text)) { try QuirkSetting.delay(parsing: text) }
    }

    @Test("quirks by name; an unknown name lists the known ones")
    func names() throws {
        for quirk in Quirk.allCases {
            #expect(try Quirk(named: quirk.rawValue) == quirk)
            #expect(!quirk.summary.isEmpty && !quirk.fieldReport.isEmpty)
        }
        #expect(Quirk.allCases.count == 10)
        let error = QuirkError.unknownQuirk("lateReplies")
        #expect(throws: error) { try Quirk(named: "lateReplies") }
        #expect(error.description.contains("lateReply, replyAndError"))
    }
}
