import Foundation
import Glibc
import WatchPairWire

/// Payload arguments: JSON text from the command line, bytes from a file or standard input.
///
/// Every JSON argument is the JSON itself, `@FILE` (the file's contents) or `-` (standard input): no JSON
/// text starts with `@` or is a lone `-`, so the three never overlap, and a file lifts the kernel's
/// limit on one argument (128 KiB), which a 262,144-byte context needs.
///
/// A payload that does not parse is the daemon's error too, so it fails with the same WCError the daemon
/// would give (7008 invalidParameter, 7010 payloadUnsupportedTypes for `null`), before connecting.
public enum Payload {
    /// The JSON of a dictionary payload (`send`, `transfer`, `context set`), checked to be a
    /// property-list dictionary and written with the `$data`/`$date` conventions.
    ///
    /// - Parameter what: names the argument in the error, e.g. `message`.
    /// - Throws: `CLIError` with 7008 or 7010.
    public static func dictionary(_ text: String, what: String) throws(CLIError) -> JSONValue {
        do {
            let dictionary = try PlistJSON.dictionary(fromJSONText: text)
            return PlistValue.dictionary(dictionary).json
        } catch {
            throw CLIError(WCFailure(error.code, "\(what): \(error.message)"))
        }
    }

    /// The JSON text an argument stands for: itself, the contents of `FILE` for `@FILE`, or standard
    /// input (`standardInput`) for `-`.
    ///
    /// - Throws: `.usage` for a bare `@`; `.failure` when the file cannot be read; 7009 when it holds more
    ///   than ``maxJSONBytes``; 7008 when it is not UTF-8.
    public static func jsonText(_ argument: String, standardInput: Int32) throws(CLIError) -> String {
        let path: String
        if argument == "-" {
            path = "-"
        } else if argument.hasPrefix("@") {
            path = String(argument.dropFirst())
            guard !path.isEmpty else { throw .usage("'@' must be followed by a file name, e.g. @context.json") }
        } else {
            return argument
        }
        let bytes = try readBytes(path, standardInput: standardInput, limit: maxJSONBytes)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError(WCFailure(.invalidParameter, "\(path == "-" ? "standard input" : path) is not UTF-8 text"))
        }
        return text
    }

    /// The most bytes a JSON argument read from a file or standard input may hold: one control line.
    public static let maxJSONBytes = ControlClient.maxRequestLineBytes

    /// A `receive --reply` value: a dictionary (for dictionary messages) or `{"$data": …}` (for data
    /// messages).
    ///
    /// - Returns: the JSON to send as `autoReply` and whether it is a data reply.
    /// - Throws: `CLIError` with 7008 for anything else, or 7010 for a `null`.
    public static func reply(_ text: String) throws(CLIError) -> (json: JSONValue, isData: Bool) {
        do throws(WCFailure) {
            let value = try PlistJSON.reply(fromJSON: JSONValue.parse(text), name: "--reply")
            if case .data = value { return (value.json, true) }
            return (value.json, false)
        } catch {
            throw CLIError(WCFailure(error.code, "reply: \(error.message)"))
        }
    }

    /// Reads all bytes of `path` (`-`: the descriptor `standardInput`), at most `limit`.
    ///
    /// - Throws: `.failure` when the file cannot be opened or read; 7009 (payloadTooLarge) when it holds
    ///   more than `limit` bytes.
    public static func readBytes(_ path: String, standardInput: Int32, limit: Int) throws(CLIError) -> [UInt8] {
        let fd: Int32
        let name = path == "-" ? "standard input" : path
        if path == "-" {
            fd = standardInput
        } else {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CLIError.system("cannot open \(path)", errno: errno) }
        }
        defer { if path != "-" { _ = close(fd) } }

        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIError.system("cannot read \(name)", errno: errno)
            }
            if n == 0 { return result }
            result += chunk[0..<n]
            if result.count > limit {
                throw CLIError(WCFailure(.payloadTooLarge, "\(name) holds more than \(limit) bytes."))
            }
        }
    }

    /// The most bytes `send-data` sends: what fits in one control line once base64-encoded.
    public static let maxDataBytes = (ControlClient.maxRequestLineBytes - 1024) / 4 * 3

    /// How long to wait for a `send`'s response: the reply timeout plus a margin for the daemon, or a
    /// generous bound when the daemon's own default applies. A safety net only: the daemon reports 7012.
    static func replyWait(timeout: Double?) -> Duration {
        guard let timeout else { return .seconds(300) }
        return min(.seconds(timeout), forever) + .seconds(30)
    }

    /// How long to wait for any other request's response (a safety net against a hung daemon).
    static let requestWait: Duration = .seconds(30)

    /// "No limit" for a blocking call: a year.
    static let forever: Duration = .seconds(86_400 * 365)
}
