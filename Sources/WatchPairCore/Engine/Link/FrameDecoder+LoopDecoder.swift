import WatchPairWire

/// The link's stream, decoded on its socket's loop (``LoopBacklog``).
extension FrameDecoder: LoopDecoder {
    public mutating func decode(_ bytes: [UInt8]) -> (items: [Frame], failure: FrameError?) {
        append(bytes)
        var frames: [Frame] = []
        do throws(FrameError) {
            while let frame = try next() { frames.append(frame) }
        } catch {
            return (frames, error)
        }
        return (frames, nil)
    }
}
