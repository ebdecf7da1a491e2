import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A swift-log `LogHandler` writing structured entries to journald, or plain lines to stderr without one.
///
/// Journal entries carry `MESSAGE`, `PRIORITY`, `SYSLOG_IDENTIFIER`, `CODE_FILE`, `CODE_LINE`,
/// `CODE_FUNC` and one field per metadata key (see ``JournalFields/logEntry(level:message:identifier:metadata:file:function:line:)``);
/// never `UNIT=`. Metadata is merged as swift-log's own handlers do: handler metadata, then the metadata
/// provider, then the call's metadata, then `error.message`/`error.type` for a logged error.
///
/// With `.automatic` the destination is decided once, at init. A journal send that fails falls back to
/// stderr for that record. Stderr lines look like `phoned[1234]: WARNING link lost peer=watch retry=2`
/// (see ``stderrLine(identifier:pid:level:message:metadata:)``), one `write` each.
public struct JournaldLogHandler: LogHandler {
    /// Where records go.
    public enum Destination: Sendable {
        /// The journal when ``Journal/socketPath`` exists at init, stderr otherwise.
        case automatic
        /// The journal whenever its socket exists, checked per record (libsystemd silently drops entries
        /// while the socket is absent); otherwise, or when the journal refuses a record, stderr.
        case journal
        /// Always stderr.
        case stderr
    }

    /// The logger's label (swift-log's; not emitted as a field).
    public let label: String
    /// `SYSLOG_IDENTIFIER`, and the prefix of stderr lines, e.g. `phoned`.
    public let identifier: String
    /// Whether records are sent to the journal (false: stderr only), resolved from the destination at init.
    public var usesJournal: Bool { self.route != .stderr }
    private let route: Route
    /// The minimum level; `Logger` filters below it. Defaults to `.info`.
    public var logLevel: Logger.Level = .info
    /// Metadata attached to every record from this handler.
    public var metadata: Logger.Metadata = [:]
    /// Extra metadata fetched per record; defaults to `LoggingSystem.metadataProvider`.
    public var metadataProvider: Logger.MetadataProvider?

    /// Creates a handler; with `.automatic`, checks once whether a journal is available.
    public init(label: String, identifier: String, destination: Destination = .automatic) {
        self.label = label
        self.identifier = identifier
        switch destination {
        case .automatic: self.route = Journal.isAvailable ? .journal : .stderr
        case .journal: self.route = .journalIfAvailable
        case .stderr: self.route = .stderr
        }
        self.metadataProvider = LoggingSystem.metadataProvider
    }

    /// Handler metadata for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }

    /// Writes one record to the journal, or to stderr (see the type's documentation).
    public func log(event: LogEvent) {
        let merged = Self.merge(
            base: self.metadata,
            provided: self.metadataProvider?.get(),
            explicit: event.metadata,
            error: event.error
        )
        let message = event.message.description
        if self.route == .journal || (self.route == .journalIfAvailable && Journal.isAvailable) {
            let fields = JournalFields.logEntry(
                level: event.level,
                message: message,
                identifier: self.identifier,
                metadata: merged,
                file: event.file,
                function: event.function,
                line: event.line
            )
            if Journal.submit(JournalFields.payloads(fields)) { return }
        }
        let line = Self.stderrLine(
            identifier: self.identifier,
            pid: getpid(),
            level: event.level,
            message: message,
            metadata: merged
        )
        Self.writeToStderr(line + "\n")
    }

    /// Merges record metadata as swift-log's `StreamLogHandler` does: later sources override earlier keys.
    static func merge(
        base: Logger.Metadata,
        provided: Logger.Metadata?,
        explicit: Logger.Metadata?,
        error: (any Error)?
    ) -> Logger.Metadata {
        var merged = base
        if let provided, !provided.isEmpty {
            merged.merge(provided) { _, new in new }
        }
        if let explicit, !explicit.isEmpty {
            merged.merge(explicit) { _, new in new }
        }
        if let error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        return merged
    }

    /// Formats a stderr record: `<identifier>[<pid>]: <LEVEL> <message>[ key=value…]`, no newline.
    ///
    /// The level is uppercased (`INFO`); metadata is flattened and sorted as in
    /// ``JournalFields/flatten(_:)``. To keep one record per line, newlines, carriage returns and
    /// backslashes in the message are escaped (`\n`, `\r`, `\\`); a value that is empty or contains
    /// whitespace, `"`, `=` or `\` is written as a double-quoted string with the same escapes plus `\"`.
    public static func stderrLine(
        identifier: String,
        pid: Int32,
        level: Logger.Level,
        message: String,
        metadata: Logger.Metadata
    ) -> String {
        var line = "\(identifier)[\(pid)]: \(level.rawValue.uppercased()) \(StderrRecord.message(message))"
        for (key, value) in JournalFields.flatten(metadata) {
            line += " \(key)=\(StderrRecord.value(value))"
        }
        return line
    }

    /// Where records go, resolved at init.
    private enum Route: Sendable {
        case journal
        case journalIfAvailable
        case stderr
    }

    /// Writes all of `text` to fd 2, retrying partial writes and `EINTR`; other errors drop the record
    /// (there is nowhere left to report them).
    private static func writeToStderr(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
