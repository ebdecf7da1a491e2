import Logging
import Testing

@testable import Systemd

@Suite struct JournalFieldsTests {
    @Test(arguments: [
        ("MESSAGE_ID", "MESSAGE_ID"),
        ("wc_event", "WC_EVENT"),
        ("peer.id", "PEER_ID"),
        ("error-code", "ERROR_CODE"),
        ("Mixed Case 9", "MIXED_CASE_9"),
        ("résumé", "R_SUM_"),
        ("a\u{0}b", "A_B"),
        (String(repeating: "k", count: 70), String(repeating: "K", count: 64)),
    ])
    func sanitizesToValidName(input: String, expected: String) {
        #expect(JournalFields.sanitize(input) == expected)
    }

    @Test(arguments: [
        "", "_PID", "_systemd_unit", "-leading", "9lives", "UNIT", "unit", "user_unit", "OBJECT_SYSTEMD_UNIT",
        "coredump.unit",
    ])
    func rejectsInvalidOrForbiddenName(input: String) {
        #expect(JournalFields.sanitize(input) == nil)
    }

    @Test(arguments: [
        (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
    ])
    func priorityFollowsSyslog(level: Logger.Level, expected: Int) {
        #expect(JournalFields.priority(for: level) == expected)
    }

    @Test func flattensNestedMetadataSortedByKey() {
        let metadata: Logger.Metadata = [
            "zeta": "last",
            "peer": ["id": "watch", "seq": .stringConvertible(42)],
            "list": ["a", "b"],
            "empty": [:],
        ]
        let pairs = JournalFields.flatten(metadata).map { "\($0.key)=\($0.value)" }
        #expect(pairs == ["empty=[:]", "list=[\"a\", \"b\"]", "peer.id=watch", "peer.seq=42", "zeta=last"])
    }

    @Test func logEntryHasFixedFieldsThenMetadata() {
        let fields = JournalFields.logEntry(
            level: .warning,
            message: "link lost",
            identifier: "phoned",
            metadata: ["wc.role": "phone", "retry": .stringConvertible(2)],
            file: "Link.swift",
            function: "run()",
            line: 17
        )
        #expect(fields.map { "\($0.0)=\($0.1)" } == [
            "MESSAGE=link lost", "PRIORITY=4", "SYSLOG_IDENTIFIER=phoned", "CODE_FILE=Link.swift", "CODE_LINE=17",
            "CODE_FUNC=run()", "RETRY=2", "WC_ROLE=phone",
        ])
    }

    @Test func logEntryDropsUnitTrustedHandlerAndDuplicateKeys() {
        let fields = JournalFields.logEntry(
            level: .info,
            message: "m",
            identifier: "watchd",
            metadata: ["unit": "evil.service", "_PID": "1", "message": "shadow", "a.b": "first", "a_b": "second"],
            file: "f",
            function: "g",
            line: 1
        )
        let names = fields.map(\.0)
        #expect(names == ["MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "A_B"])
        #expect(fields.last?.1 == "first")
        #expect(fields.first?.1 == "m")
    }

    @Test func payloadsAreKeyEqualsValueWithSanitisedNames() {
        let payloads = JournalFields.payloads([
            ("MESSAGE", "two\nlines"), ("wc_event", "peerConnected"), ("UNIT", "x.service"), ("_UID", "0"),
        ])
        #expect(payloads == ["MESSAGE=two\nlines", "WC_EVENT=peerConnected"])
    }
}
