import Testing

@testable import WatchPairWire

@Suite("JSONMemberWriter")
struct JSONMemberWriterTests {
    @Test func membersInCanonicalOrderGiveTheCanonicalText() {
        var writer = JSONMemberWriter()
        writer.add("a", integer: -9_223_372_036_854_775_808)
        writer.add("b", string: "\"\\\n\r\t\u{08}\u{0C}\u{01}\u{1F} é")
        writer.add("bb", integer: 0)
        writer.add("é", string: "")
        let value = JSONValue.object([
            "a": .integer(.min), "b": .string("\"\\\n\r\t\u{08}\u{0C}\u{01}\u{1F} é"), "bb": .integer(0), "é": .string(""),
        ])
        #expect(writer.finish() == value.canonicalUTF8)
    }

    @Test func anEmptyObjectAndALine() {
        #expect(JSONMemberWriter().finish() == Array("{}".utf8))
        var writer = JSONMemberWriter()
        writer.add("k", string: "v")
        #expect(writer.finish(newline: true) == Array("{\"k\":\"v\"}\n".utf8))
    }
}
