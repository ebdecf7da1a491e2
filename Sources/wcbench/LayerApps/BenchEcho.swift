import WatchConnection

/// The typed request of the layer section: a payload answered with itself (the raw round trip's
/// message and reply carry the same payload, so the two round trips differ only by the layer).
struct BenchEcho: WatchRequest {
    typealias Response = BenchEcho
    /// The padding (64 bytes by default).
    let p: String
}
