import WatchPairCore
import WatchPairWire

/// The control socket's stream as the host's loop decodes it (``LoopBacklog``). A line the loop routed and
/// then left for the connection's reader task keeps its route, so no line is parsed twice; a line too
/// long is an item, answered in order, so the stream itself never fails.
struct ControlLines: LoopDecoder {
    /// A line as the splitter cut it, or as the loop left it for the reader task.
    enum Item: Sendable {
        /// A complete line, not read yet.
        case line([UInt8])
        /// A line already read: the request, or the rejection to answer with.
        case routed(Result<ControlRouter.Routed, ControlLineError>)
        /// A line exceeded the limit; nothing more will be produced.
        case tooLong

        init(_ piece: ControlLineSplitter.Piece) {
            switch piece {
            case .line(let bytes): self = .line(bytes)
            case .tooLong: self = .tooLong
            }
        }

        /// The request the line holds, routing it if that was not done yet; nil for a line too long.
        func routed(by router: ControlRouter) -> Result<ControlRouter.Routed, ControlLineError>? {
            switch self {
            case .line(let bytes): router.route(bytes)
            case .routed(let routed): routed
            case .tooLong: nil
            }
        }
    }

    private(set) var splitter: ControlLineSplitter

    init(limit: Int) {
        splitter = ControlLineSplitter(limit: limit)
    }

    mutating func decode(_ bytes: [UInt8]) -> (items: [Item], failure: Never?) {
        (splitter.append(bytes).map(Item.init), nil)
    }

    /// At end of stream: the unterminated last line, if any.
    mutating func finish() -> [Item] {
        splitter.finish().map(Item.init)
    }
}
