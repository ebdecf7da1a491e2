import Testing
import WatchPairWire

@Suite("PairName")
struct PairNameTests {
    @Test(arguments: ["a", "ci-3", "CI_7", "0", "x-_-y", String(repeating: "p", count: 64)])
    func acceptsNamesSafeAsPathsAndInstances(text: String) throws {
        #expect(try PairName(validating: text).rawValue == text)
        #expect(PairName.problem(with: text) == nil)
    }

    @Test(arguments: [
        ("", PairNameError.empty), ("default", .reserved), ("-a", .badStart("-a")), ("_a", .badStart("_a")),
        ("a/b", .badCharacter("a/b")), ("a.b", .badCharacter("a.b")), ("..", .badCharacter("..")),
        ("a@b", .badCharacter("a@b")), ("a b", .badCharacter("a b")), ("a\\x2d", .badCharacter("a\\x2d")),
        ("é", .badCharacter("é")), (String(repeating: "p", count: 65), .tooLong(String(repeating: "p", count: 65))),
    ])
    func rejectsEverythingElseSayingWhy(text: String, error: PairNameError) {
        #expect(PairName.problem(with: text) == error)
        #expect(throws: error) { try PairName(validating: text) }
    }

    @Test func errorsAreSentences() {
        #expect(PairNameError.reserved.description.contains("leave out the pair name"))
        #expect(PairNameError.badCharacter("a/b").description == "pair name \"a/b\" may hold only ASCII letters, digits, - and _ (it becomes a path and a unit name)")
    }

    @Test func namesUnitsDirectoriesAndLabels() throws {
        let pair = try PairName(validating: "ci-3")
        #expect(pair.unit(of: .phone, kind: .socket) == "phoned@ci-3.socket")
        #expect(PairName.unit(of: .watch, kind: .service, pair: pair) == "watchd@ci-3.service")
        #expect(PairName.unit(of: .watch, kind: .service, pair: nil) == "watchd.service")
        #expect(PairName.directory("/run/watchpair", pair: pair) == "/run/watchpair/ci-3")
        #expect(PairName.directory("/run/watchpair/", pair: pair) == "/run/watchpair/ci-3")
        #expect(PairName.directory("/run/watchpair", pair: nil) == "/run/watchpair")
        #expect(PairName.label(of: pair) == "ci-3" && PairName.label(of: nil) == "default")
    }
}
