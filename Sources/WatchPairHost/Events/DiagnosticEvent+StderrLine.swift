import Systemd
import WatchPairCore
import WatchPairWire

extension DiagnosticEvent {
    /// One stderr line without its newline:
    /// `<timestamp> <identifier>[<pid>]: <event> <message> role=… channel=… …`, the timestamp UTC with
    /// microseconds (``EventTimestamp``) so both apps' lines merge by time.
    ///
    /// Newlines and backslashes in the message are escaped so an event stays one line; values that hold
    /// spaces, quotes or `=` are double-quoted (``StderrRecord``).
    func stderrLine(identifier: String, pid: Int32) -> String {
        var line: [UInt8] = []
        appendStderrLine(to: &line, after: Self.stderrPrefix(identifier: identifier, pid: pid))
        return String(decoding: line, as: UTF8.self)
    }

    /// The part of every stderr line between its timestamp and its event name, ` <identifier>[<pid>]: `,
    /// made once per writer: it is the same for all the daemon's events.
    static func stderrPrefix(identifier: String, pid: Int32) -> [UInt8] {
        Array(" \(identifier)[\(pid)]: ".utf8)
    }

    /// Appends ``stderrLine(identifier:pid:)`` (without its newline) to `out`, `prefix` being
    /// ``stderrPrefix(identifier:pid:)``: written in place, numbers and ids as digits, no `String` per piece
    /// (the event lines were a quarter of the daemons' CPU with 64 messages in flight).
    func appendStderrLine(to out: inout [UInt8], after prefix: [UInt8]) {
        EventTimestamp.append(timestamp, to: &out)
        out.append(contentsOf: prefix)
        out.append(contentsOf: kind.name.utf8)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: StderrRecord.message(message).utf8)
        out.append(contentsOf: " role=".utf8)
        out.append(contentsOf: role.rawValue.utf8)
        // In the order of the journal's fields; `EventLineBytesTests` holds the line equal to the former one.
        func key(_ name: EventField.Name) {
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: name.key.utf8)
            out.append(UInt8(ascii: "="))
        }
        forEachOptionalField(
            text: { name, value in
                key(name)
                out.append(contentsOf: StderrRecord.value(value).utf8)
            },
            plain: { name, value in
                key(name)
                value.append(to: &out)
            })
    }
}
