import WatchPairWire

/// Checks what a receiving app printed against what the sender accepted: nothing lost, nothing
/// duplicated, FIFO order (docs/Design.md, "userInfo"). Pure: tests feed it the `wcctl` output.
///
/// The receiving `wcctl receive --follow` runs in *segments*: each ends when its daemon is killed, and
/// the next starts after the restart. Within a segment every transfer is printed at most once. A new
/// segment may begin by printing again items that the previous one printed but whose acknowledgement
/// the killed daemon had not stored yet (docs/ControlProtocol.md: unacknowledged items are delivered
/// again); such redeliveries must be the newest items printed before, at most ``redeliveryBound``,
/// and must come first in the new segment. Anything else printed twice is a duplicate.
struct DeliveryCheck {
    /// One accepted transfer, as `wcctl --json transfer` printed it.
    struct Accepted: Sendable {
        var n: Int
        var seq: Int64
    }

    /// One printed `userInfo` line.
    struct Item: Sendable {
        var transferId: String
        var n: Int
        var seq: Int64
    }

    /// Most items a restarted receiver may print again (acknowledgements in flight at the kill).
    static let redeliveryBound = 128

    /// Accepted transfers by id.
    var accepted: [String: Accepted]
    /// Payload numbers with an attempt whose outcome is unknown (the sender died mid-request): a transfer
    /// with such a number and an id we never saw may legitimately arrive.
    var unknownOutcome: Set<Int>

    /// Parses one segment's lines; unreadable lines are returned as problems.
    static func items(_ lines: [String]) -> (items: [Item], problems: [String]) {
        var items: [Item] = []
        var problems: [String] = []
        for line in lines {
            guard let value = JSONValue.from(line), value["channel"] == .string("userInfo"),
                let id = value["transferId"]?.stringValue, let n = value["userInfo"]?["n"]?.integerValue, let seq = value["seq"]?.integerValue
            else {
                problems.append("unreadable receive line: \(line)")
                continue
            }
            items.append(Item(transferId: id, n: Int(n), seq: seq))
        }
        return (items, problems)
    }

    /// The problems found; empty when delivery was exactly once and in order. Also returns how many
    /// items were redelivered after a restart (allowed) and how many unknown-outcome transfers arrived.
    func problems(segments: [[Item]]) -> (problems: [String], redelivered: Int, ghosts: Int) {
        var problems: [String] = []
        var printed: [Item] = []  // every item in print order, across segments
        var seen: Set<String> = []
        var redelivered = 0
        for (index, segment) in segments.enumerated() {
            var inSegment: Set<String> = []
            var prefixOpen = true
            for item in segment {
                if !inSegment.insert(item.transferId).inserted {
                    problems.append("segment \(index): \(item.transferId) (n \(item.n)) printed twice by one receiver")
                    continue
                }
                if seen.contains(item.transferId) {
                    let tail = printed.suffix(Self.redeliveryBound).map(\.transferId)
                    if !prefixOpen {
                        problems.append("segment \(index): \(item.transferId) (n \(item.n)) printed again after new items")
                    } else if !tail.contains(item.transferId) {
                        problems.append("segment \(index): \(item.transferId) (n \(item.n)) printed again but was not among the last \(Self.redeliveryBound) printed")
                    } else {
                        redelivered += 1
                    }
                } else {
                    prefixOpen = false
                    seen.insert(item.transferId)
                    printed.append(item)
                }
            }
        }

        // FIFO: first occurrences in strictly increasing seq.
        for (a, b) in zip(printed, printed.dropFirst()) where b.seq <= a.seq {
            problems.append("out of order: seq \(b.seq) (n \(b.n)) printed after seq \(a.seq) (n \(a.n))")
        }
        var ghosts = 0
        for item in printed {
            if let accepted = accepted[item.transferId] {
                if accepted.n != item.n || accepted.seq != item.seq {
                    problems.append("\(item.transferId): accepted as n \(accepted.n) seq \(accepted.seq), received as n \(item.n) seq \(item.seq)")
                }
            } else if unknownOutcome.contains(item.n) {
                ghosts += 1
            } else {
                problems.append("\(item.transferId) (n \(item.n)) was received but never accepted")
            }
        }
        let lost = accepted.filter { !seen.contains($0.key) }.sorted { $0.value.seq < $1.value.seq }
        if !lost.isEmpty {
            problems.append("\(lost.count) accepted transfers lost, e.g. \(lost.prefix(5).map { "n \($0.value.n) seq \($0.value.seq) \($0.key)" })")
        }
        return (problems, redelivered, ghosts)
    }
}
