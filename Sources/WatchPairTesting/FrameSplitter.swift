import WatchPairWire

/// Splits what one connection writes into its frames, so that a fault can take whole frames.
///
/// The frames are found by `FrameDecoder`, as the peer finds them. A write that ends inside a frame leaves
/// the rest of that frame to the next write; such a frame is never a target (part of it is already on its
/// way). Once the bytes are not frames (the decoder throws), nothing more on the connection is split:
/// every later write is one ``Piece`` without a frame, and only whole-write faults apply.
///
/// Bound: the decoder's: at most one partial frame (up to `FrameFormat.defaultMaxFrameLength` + 8 bytes,
/// the engine's limit) plus the latest write.
struct FrameSplitter: Sendable {
    /// A run of one write's bytes: a whole frame that began in this write, or bytes that are not one.
    struct Piece: Sendable, Equatable {
        /// Where the run is in the write.
        var range: Range<Int>
        /// The frame, when the run is one whole frame; nil for the end of a frame begun earlier, the start
        /// of one that ends later, or bytes that are not frames.
        var frame: Frame?
    }

    private var decoder = FrameDecoder()
    /// How many bytes of the frame in progress earlier writes held.
    private var carried = 0
    /// The bytes stopped being frames: nothing more is split.
    private var broken = false

    /// The pieces of `bytes`, in order, covering all of it.
    mutating func split(_ bytes: [UInt8]) -> [Piece] {
        guard !broken else { return bytes.isEmpty ? [] : [Piece(range: 0..<bytes.count, frame: nil)] }
        decoder.append(bytes)
        var pieces: [Piece] = []
        // Where the next frame begins in `bytes`: before it (negative) while it began in an earlier write.
        var start = -carried
        while true {
            let buffered = decoder.bufferedByteCount
            let frame: Frame?
            do {
                frame = try decoder.next()
            } catch {
                broken = true
                break
            }
            guard let frame else { break }
            let end = start + buffered - decoder.bufferedByteCount
            pieces.append(Piece(range: max(start, 0)..<end, frame: start >= 0 ? frame : nil))
            start = end
        }
        if max(start, 0) < bytes.count { pieces.append(Piece(range: max(start, 0)..<bytes.count, frame: nil)) }
        carried = broken ? 0 : decoder.bufferedByteCount
        return pieces
    }
}
