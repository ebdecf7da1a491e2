import Foundation
import Testing
import WatchPairCore
import WatchPairWire

@testable import WatchPairHost

/// The history file's line is written member by member (`historyLine`); it must stay byte for byte the
/// canonical text of `controlJSON`, which `wcctl events`, the timeline and older daemons read.
@Suite("Event history line")
struct EventHistoryLineTests {
    static let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")
    static let at = Date(timeIntervalSince1970: 1_795_000_000.123456)

    static let events: [DiagnosticEvent] = [
        DiagnosticEvent(.idleExit, role: .phone, "bye", timestamp: at),
        DiagnosticEvent(
            .userInfoFinished, role: .watch, "userInfo 3 finished", channel: .userInfo, transferId: id, seq: 3,
            errorCode: .deliveryFailed, duration: .microseconds(1500), timestamp: at),
        // Every field at once, with text that needs escaping and numbers at their limits.
        DiagnosticEvent(
            .fileProgress, role: .phone, "quote \" backslash \\ newline \n tab \t bell \u{07} é 🚲", severity: .error,
            channel: .file, transferId: id,
            file: .init(name: "ride \"1\".fit", bytes: UInt64.max, offset: 0), seq: UInt64(Int64.max) + 1,
            errorCode: .insufficientSpace, duration: .seconds(-2),
            request: .init(
                type: "Ping", id: id, attempt: 3, strategy: "messageWithUserInfoFallback", health: "degraded",
                syncKey: "list\u{1F}", syncRevision: "7@phone"),
            timestamp: at),
        DiagnosticEvent(.fileQueued, role: .watch, "", file: .init(name: "a.txt"), timestamp: at),
        DiagnosticEvent(.syncSent, role: .phone, "sync", request: .init(syncKey: "k", syncRevision: "1@phone"), timestamp: at),
    ]

    @Test("the line is controlJSON's canonical text and a newline", arguments: events.indices)
    func lineIsTheCanonicalText(index: Int) {
        let event = Self.events[index]
        #expect(String(decoding: event.historyLine, as: UTF8.self) == event.controlJSON.canonicalText + "\n")
    }

    @Test("a line reads back as the event it was written from", arguments: events.indices)
    func lineReadsBack(index: Int) throws {
        let event = Self.events[index]
        let json = try JSONValue.parse(utf8: event.historyLine.dropLast())
        #expect(DiagnosticEvent(controlJSON: json)?.controlJSON == event.controlJSON)
    }
}
