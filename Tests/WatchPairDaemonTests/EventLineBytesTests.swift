import Foundation
import Testing
import WatchPairCore
import WatchPairWire

@testable import Systemd
@testable import WatchPairDaemon
@testable import WatchPairHost

/// The stderr and history lines are written as bytes in place, into one buffer per batch; they must stay
/// byte for byte the lines the former `String` code wrote (kept here as the reference) and
/// `controlJSON.canonicalText`, for every kind and every shape of field: escapes, Unicode, numbers at their
/// limits, empty and missing fields.
@Suite("Event lines as bytes")
struct EventLineBytesTests {
    static let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
    static let at = Date(timeIntervalSince1970: 1_795_000_000.123456)
    static let kinds = EventCatalogTests.kinds

    /// Every field shape, each for one kind (`shape(kind)` makes the event).
    static let shapes: [(name: String, event: @Sendable (DiagnosticEvent.Kind) -> DiagnosticEvent)] = [
        ("bare", { DiagnosticEvent($0, role: .phone, "bye", timestamp: at) }),
        ("empty message", { DiagnosticEvent($0, role: .watch, "", timestamp: Date(timeIntervalSince1970: 0)) }),
        ("engine fields", {
            DiagnosticEvent(
                $0, role: .watch, "userInfo 3 finished", channel: .userInfo, transferId: id, seq: 3,
                errorCode: .deliveryFailed, duration: .microseconds(1500), timestamp: at)
        }),
        ("escapes, Unicode and limits", {
            DiagnosticEvent(
                $0, role: .phone, "quote \" backslash \\ newline \n return \r tab \t bell \u{07} é 🚲 = x", severity: .error,
                channel: .file, transferId: id, file: .init(name: "ride \"1\" = \\.fit", bytes: UInt64.max, offset: 0),
                seq: UInt64(Int64.max) + 1, errorCode: .insufficientSpace, duration: .seconds(-2),
                request: .init(
                    type: "Ping pong", id: id, attempt: Int.max, strategy: "", health: "dégradé\u{2003}x",
                    syncKey: "list\u{1F}", syncRevision: "7@phone"),
                timestamp: Date(timeIntervalSince1970: -1))
        }),
        ("file fields alone", { DiagnosticEvent($0, role: .watch, "f", file: .init(name: "a.txt", offset: 42), timestamp: at) }),
        ("vocabulary fields alone", {
            DiagnosticEvent($0, role: .phone, "sync", request: .init(attempt: -3, syncKey: "k", syncRevision: "1@phone"), timestamp: at)
        }),
        ("a quirk", {
            DiagnosticEvent($0, role: .phone, "q", fields: [EventField(.quirk, .string("drop reply")), EventField(.quirk, .integer(5))], timestamp: at)
        }),
    ]

    static let cases: [(kind: Int, shape: Int)] = kinds.indices.flatMap { kind in shapes.indices.map { (kind, $0) } }

    @Test("the stderr line is the former one", arguments: cases)
    func stderrLineIsTheFormerLine(kind: Int, shape: Int) {
        let event = Self.shapes[shape].event(Self.kinds[kind])
        let former = Self.formerStderrLine(event, identifier: "watchd", pid: 4242)
        #expect(event.stderrLine(identifier: "watchd", pid: 4242) == former, "\(Self.shapes[shape].name)")
        var bytes = Array("before\n".utf8)
        event.appendStderrLine(to: &bytes, after: DiagnosticEvent.stderrPrefix(identifier: "watchd", pid: 4242))
        #expect(bytes == Array(("before\n" + former).utf8))
    }

    @Test("the history line is controlJSON's canonical text", arguments: cases)
    func historyLineIsTheCanonicalText(kind: Int, shape: Int) {
        let event = Self.shapes[shape].event(Self.kinds[kind])
        var bytes = Array("{}\n".utf8)
        event.appendHistoryLine(to: &bytes)
        #expect(bytes == Array(("{}\n" + event.controlJSON.canonicalText + "\n").utf8), "\(Self.shapes[shape].name)")
    }

    @Test("the journal entry is its fields' datagram", arguments: cases)
    func journalEntryIsTheFieldsDatagram(kind: Int, shape: Int) {
        let event = Self.shapes[shape].event(Self.kinds[kind])
        var datagram = JournalDatagram()
        event.appendJournalEntry(to: &datagram, identifier: "phoned", pair: "bench-2")
        let fields = event.journalFields(identifier: "phoned", pair: "bench-2")
        #expect(datagram.bytes == Journal.nativeDatagram(JournalFields.payloads(fields)), "\(Self.shapes[shape].name)")
    }

    @Test func aBatchOnStderrIsTheFormerLinesInOrder() throws {
        let events = Self.kinds.flatMap { kind in Self.shapes.map { $0.event(kind) } }
        let dir = try TemporaryDirectory()
        let path = dir.path + "/stderr"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(descriptor) }
        let writer = EventWriter.standard(
            destination: .stderr, identifier: "phoned", pid: 7, stderr: NoWaitWrite(descriptor: descriptor))
        writer.writeBatch(events)
        writer.drain()
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == events.map { Self.formerStderrLine($0, identifier: "phoned", pid: 7) + "\n" }.joined())
    }

    @Test func aBatchInTheHistoryIsItsLinesInOrder() throws {
        let dir = try TemporaryDirectory()
        let events = Self.kinds.map { Self.shapes[3].event($0) }
        let (history, _) = EventHistory.open(directory: dir.path, logger: quietLogger)
        history?.append(contentsOf: events)
        history?.close()
        let written = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/" + EventHistory.currentFileName))
        #expect(Array(written) == Array(events.map { $0.controlJSON.canonicalText + "\n" }.joined().utf8))
    }

    /// The stderr line as the former code made it: a `String` per field, interpolated.
    static func formerStderrLine(_ event: DiagnosticEvent, identifier: String, pid: Int32) -> String {
        var optional: [(EventField.Name, String)] = []
        if let channel = event.channel { optional.append((.channel, channel.rawValue)) }
        if let transferId = event.transferId { optional.append((.transferId, transferId.uuidString)) }
        if let name = event.file?.name { optional.append((.fileName, name)) }
        if let bytes = event.file?.bytes { optional.append((.fileBytes, String(bytes))) }
        if let offset = event.file?.offset { optional.append((.fileOffset, String(offset))) }
        if let seq = event.seq { optional.append((.seq, String(seq))) }
        if let errorCode = event.errorCode { optional.append((.errorCode, String(errorCode.rawValue))) }
        if let duration = event.durationMicroseconds { optional.append((.durationUs, String(duration))) }
        for field in event.fields { optional.append((field.name, field.value.text)) }
        var line = "\(EventTimestamp.format(event.timestamp)) \(identifier)[\(pid)]: \(event.kind.name) \(StderrRecord.message(event.message)) role=\(event.role.rawValue)"
        for (name, value) in optional { line += " \(name.key)=\(StderrRecord.value(value))" }
        return line
    }
}
