/// What `wcctl transfer-file --wait` shows of a file's progress (pure, so it is tested as a table).
///
/// On a terminal: one line rewritten in place (`\r`) on each acknowledgement. Otherwise (a pipe, a CI
/// log): a plain line each time another tenth of the file is acknowledged, so a 200 MiB file gives ten
/// lines, not thousands.
struct FileProgressDisplay {
    /// Rewrite one line in place (a terminal) or print a line per tenth.
    let terminal: Bool
    let fileName: String
    let size: UInt64
    /// The last tenth printed (plain lines only).
    private var shownTenths = 0

    init(terminal: Bool, fileName: String, size: UInt64) {
        self.terminal = terminal
        self.fileName = fileName
        self.size = size
    }

    /// The text to write to standard error for `acknowledged` bytes, or nil when nothing new is shown.
    mutating func update(acknowledged: UInt64) -> String? {
        let percent = size == 0 ? 100 : Int(acknowledged * 100 / size)
        if terminal {
            return "\r\(fileName)  \(String(repeating: " ", count: max(0, 3 - String(percent).count)))\(percent)%  \(Self.mib(acknowledged)) of \(Self.mib(size)) MiB\u{1B}[K"
        }
        let tenths = percent / 10
        guard tenths > shownTenths else { return nil }
        shownTenths = tenths
        return "\(fileName) \(tenths * 10)% (\(acknowledged) of \(size) bytes)\n"
    }

    /// What ends the display: a newline after the in-place line; nothing after plain lines.
    var finish: String { terminal ? "\n" : "" }

    /// Bytes as MiB with one decimal.
    static func mib(_ bytes: UInt64) -> String {
        let tenths = bytes * 10 / (1 << 20)
        return "\(tenths / 10).\(tenths % 10)"
    }
}
