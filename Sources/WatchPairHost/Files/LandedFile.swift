import Foundation

/// A file in the app's `files/` directory.
public struct LandedFile: Sendable, Hashable {
    /// Its name in the directory.
    public var name: String
    /// Its full path.
    public var path: String
    /// Its size in bytes.
    public var size: UInt64
    /// When it was last modified (for a landed file: when its last byte arrived).
    public var modifiedAt: Date
}
