import Testing

@testable import Systemd

/// The escaping and quoting rules of a stderr record, including the byte-level fast paths.
@Suite("StderrRecord")
struct StderrRecordTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("6F9619FF-8B86-D011-B42D-00C04FC964FF", "6F9619FF-8B86-D011-B42D-00C04FC964FF"),
        ("", "\"\""),
        ("two words", "\"two words\""),
        ("tab\there", "\"tab\there\""),
        ("a=b", "\"a=b\""),
        ("say \"hi\"", "\"say \\\"hi\\\"\""),
        ("back\\slash", "\"back\\\\slash\""),
        ("line\nbreak", "\"line\\nbreak\""),
        ("crlf\r\n", "\"crlf\\r\\n\""),
        ("héllo✓", "héllo✓"),
        ("no\u{00A0}break", "\"no\u{00A0}break\""),
        ("em\u{2003}space", "\"em\u{2003}space\""),
    ])
    func value(_ input: String, _ expected: String) {
        #expect(StderrRecord.value(input) == expected)
    }

    @Test(arguments: [
        ("nothing to escape", "nothing to escape"),
        ("quotes \"stay\"", "quotes \"stay\""),
        ("two\nlines\r", "two\\nlines\\r"),
        ("back\\slash", "back\\\\slash"),
        ("ünïcödé ✓", "ünïcödé ✓"),
    ])
    func message(_ input: String, _ expected: String) {
        #expect(StderrRecord.message(input) == expected)
    }
}
