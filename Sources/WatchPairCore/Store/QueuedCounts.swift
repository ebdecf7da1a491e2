/// What one side holds for its peer and the peer has not yet acknowledged: what `wcctl watches` shows per
/// watch, and what unpairing a watch drops (docs/Watches.md).
public struct QueuedCounts: Sendable, Hashable, Codable, CustomStringConvertible {
    /// userInfo transfers (complication transfers included) not yet acknowledged.
    public var userInfo: Int
    /// File transfers not yet ended by the receiver.
    public var files: Int
    /// 1 when the newest application context sent is not yet held by the peer, else 0.
    public var context: Int

    /// Counts.
    public init(userInfo: Int = 0, files: Int = 0, context: Int = 0) {
        self.userInfo = userInfo
        self.files = files
        self.context = context
    }

    /// Every item.
    public var total: Int { userInfo + files + context }

    /// `2 userInfo, 1 file, 0 contexts`.
    public var description: String {
        "\(userInfo) userInfo, \(files) file\(files == 1 ? "" : "s"), \(context) context\(context == 1 ? "" : "s")"
    }
}
