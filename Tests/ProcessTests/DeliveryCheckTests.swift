import Testing

/// The crash test's checker must catch what it exists to catch: tables of synthetic receive output.
@Suite("Delivery checker")
struct DeliveryCheckTests {
    typealias Item = DeliveryCheck.Item

    static func item(_ n: Int, id: String? = nil, seq: Int64? = nil) -> Item {
        Item(transferId: id ?? "T\(n)", n: n, seq: seq ?? Int64(n))
    }

    /// T1…T6 accepted with n = seq = 1…6.
    static let accepted: [String: DeliveryCheck.Accepted] = Dictionary(
        uniqueKeysWithValues: (1...6).map { ("T\($0)", DeliveryCheck.Accepted(n: $0, seq: Int64($0))) })

    /// A case: receiver segments and a substring of the expected problem (nil: none expected).
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var segments: [[Item]]
        var problem: String?
        var accepted: [String: DeliveryCheck.Accepted] = DeliveryCheckTests.accepted
        var unknownOutcome: Set<Int> = []
        var redelivered = 0
        var ghosts = 0
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "exactly once, in order", segments: [(1...6).map { item($0) }], problem: nil),
        Case(name: "split over restarts", segments: [(1...3).map { item($0) }, (4...6).map { item($0) }], problem: nil),
        Case(
            name: "unacknowledged tail shown again after a restart",
            segments: [(1...4).map { item($0) }, (3...6).map { item($0) }], problem: nil, redelivered: 2),
        Case(name: "one lost", segments: [[1, 2, 3, 5, 6].map { item($0) }], problem: "lost"),
        Case(name: "duplicate within one receiver", segments: [[1, 2, 3, 3, 4, 5, 6].map { item($0) }], problem: "printed twice"),
        Case(name: "old item again after new ones", segments: [(1...4).map { item($0) }, [5, 2, 6].map { item($0) }], problem: "after new items"),
        Case(name: "out of order", segments: [[1, 3, 2, 4, 5, 6].map { item($0) }], problem: "out of order"),
        Case(name: "never accepted", segments: [(1...6).map { item($0) } + [item(7, id: "X", seq: 7)]], problem: "never accepted"),
        Case(name: "wrong payload for an id", segments: [[item(1), item(9, id: "T2", seq: 2)] + (3...6).map { item($0) }], problem: "received as n 9"),
        Case(
            name: "extra copy of an attempt with an unknown outcome",
            segments: [[item(1), item(2), item(3, id: "G", seq: 3)] + (3...6).map { item($0, seq: Int64($0) + 1) }],
            problem: nil,
            accepted: Dictionary(uniqueKeysWithValues: (1...6).map { ("T\($0)", DeliveryCheck.Accepted(n: $0, seq: $0 < 3 ? Int64($0) : Int64($0) + 1)) }),
            unknownOutcome: [3], ghosts: 1),
    ]

    @Test("finds each kind of delivery fault, and accepts what the protocol allows", arguments: cases)
    func check(_ c: Case) {
        let result = DeliveryCheck(accepted: c.accepted, unknownOutcome: c.unknownOutcome).problems(segments: c.segments)
        if let problem = c.problem {
            #expect(result.problems.contains { $0.contains(problem) }, "\(result.problems)")
        } else {
            #expect(result.problems.isEmpty, "\(result.problems)")
        }
        #expect(result.redelivered == c.redelivered)
        #expect(result.ghosts == c.ghosts)
    }
}
