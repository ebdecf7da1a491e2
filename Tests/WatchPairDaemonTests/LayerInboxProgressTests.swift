import Testing

@testable import WatchPairDaemon

/// When the daemon's layer reads the inbox's head: only while it holds an item it has not acknowledged.
@Suite("Layer inbox progress")
struct LayerInboxProgressTests {
    /// One step: an item read (its delivery id, whether it is the layer's) or an acknowledgement.
    enum Step: Sendable, CustomStringConvertible {
        case saw(UInt64, layers: Bool)
        case acknowledged(UInt64)

        var description: String {
            switch self {
            case .saw(let id, let layers): "saw \(id)\(layers ? " (layer)" : "")"
            case .acknowledged(let id): "acknowledged \(id)"
            }
        }
    }

    @Test("the head is read only while a layer item is unacknowledged", arguments: [
        // Only a receive client's items: the layer owes nothing, however many arrive.
        ([Step.saw(1, layers: false), .saw(2, layers: false), .saw(3, layers: false)], 3, false),
        // A layer item handed on is owed until acknowledged.
        ([.saw(1, layers: true)], 1, true),
        ([.saw(1, layers: true), .acknowledged(1)], 1, false),
        // A client's item first: the layer's run cannot start, so it stays owed.
        ([.saw(1, layers: false), .saw(2, layers: true), .acknowledged(0)], 2, true),
        // Acknowledged past the client's item once the client took it.
        ([.saw(1, layers: false), .saw(2, layers: true), .acknowledged(2)], 2, false),
        // Part of the layer's items acknowledged: the rest are still owed.
        ([.saw(1, layers: true), .saw(2, layers: false), .saw(3, layers: true), .acknowledged(1)], 3, true),
        // Reads never move backwards.
        ([.saw(5, layers: false), .saw(4, layers: false)], 5, false),
        ([.saw(2, layers: true), .acknowledged(2), .acknowledged(1)], 2, false),
    ] as [([Step], UInt64, Bool)])
    func table(steps: [Step], cursor: UInt64, owes: Bool) {
        var progress = LayerInboxProgress()
        for step in steps {
            switch step {
            case .saw(let id, let layers): progress.saw(id, layers: layers)
            case .acknowledged(let id): progress.acknowledged(upTo: id)
            }
        }
        #expect(progress.cursor == cursor, "\(steps)")
        #expect(progress.owesAcknowledgement == owes, "\(steps)")
    }
}
