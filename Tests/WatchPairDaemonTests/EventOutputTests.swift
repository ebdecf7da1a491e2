import Foundation
import Testing
import WatchPairCore
import WatchPairWire

@testable import WatchPairDaemon
@testable import WatchPairHost

@Suite("Diagnostic event output")
struct EventOutputTests {
    let full = DiagnosticEvent(
        .userInfoFinished, role: .watch, "userInfo 3 finished", channel: .userInfo,
        transferId: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF"), seq: 3, errorCode: .deliveryFailed,
        duration: .microseconds(1500), timestamp: Date(timeIntervalSince1970: 1_700_000_000))
    let bare = DiagnosticEvent(.idleExit, role: .phone, "bye\nnow")

    @Test func journalFieldsCarryEveryFieldThatApplies() {
        let fields = full.journalFields(identifier: "watchd")
        #expect(fields.map(\.0) == [
            "MESSAGE", "MESSAGE_ID", "PRIORITY", "SYSLOG_IDENTIFIER", "WC_EVENT", "WC_ROLE",
            "WC_CHANNEL", "WC_TRANSFER_ID", "WC_SEQ", "WC_ERROR_CODE", "WC_DURATION_US",
        ])
        let values = Dictionary(uniqueKeysWithValues: fields)
        #expect(values["MESSAGE_ID"] == DiagnosticEvent.Kind.userInfoFinished.messageID)
        #expect(values["PRIORITY"] == "7")
        #expect(values["WC_EVENT"] == "userInfoFinished" && values["WC_ROLE"] == "watch")
        #expect(values["WC_TRANSFER_ID"] == "6F9619FF-8B86-D011-B42D-00C04FC964FF")
        #expect(values["WC_ERROR_CODE"] == "7014" && values["WC_DURATION_US"] == "1500")
        #expect(!fields.contains { $0.0 == "UNIT" })
        #expect(bare.journalFields(identifier: "phoned").map(\.0) == [
            "MESSAGE", "MESSAGE_ID", "PRIORITY", "SYSLOG_IDENTIFIER", "WC_EVENT", "WC_ROLE",
        ])
    }

    @Test func stderrLineIsOneLine() {
        #expect(full.stderrLine(identifier: "watchd", pid: 42) == "2023-11-14T22:13:20.000000Z watchd[42]: userInfoFinished userInfo 3 finished role=watch channel=userInfo transferId=6F9619FF-8B86-D011-B42D-00C04FC964FF seq=3 errorCode=7014 durationUs=1500")
        let line = bare.stderrLine(identifier: "phoned", pid: 1)
        #expect(line.hasSuffix("Z phoned[1]: idleExit bye\\nnow role=phone") && line.count == 28 + 39, "\(line)")
    }

    @Test func controlJSONHasTheDocumentedKeys() {
        guard case .object(let object) = full.controlJSON else {
            Issue.record("not an object")
            return
        }
        #expect(Set(object.keys) == [
            "timestamp", "event", "role", "message", "priority", "channel", "transferId", "seq", "errorCode", "durationUs", "messageId",
        ])
        #expect(object["timestamp"] == .string("2023-11-14T22:13:20.000000Z"))
        #expect(object["durationUs"] == .integer(1500))
        guard case .object(let small) = bare.controlJSON else { return }
        #expect(Set(small.keys) == ["timestamp", "event", "role", "message", "priority", "messageId"])
    }

    @Test func eventLogKeepsTheNewestAndCountsWhatAFollowerMissed() {
        let log = EventLog(capacity: 3)
        let start = log.oldestPosition
        for n in 1...5 { log.append(DiagnosticEvent(.messageSent, role: .phone, "m\(n)")) }
        #expect(log.recent.map(\.message) == ["m3", "m4", "m5"])
        let (events, next, dropped) = log.read(from: start)
        #expect(events.map(\.message) == ["m3", "m4", "m5"] && next == 5 && dropped == 2)
        let (none, same, zero) = log.read(from: next)
        #expect(none.isEmpty && same == 5 && zero == 0)
    }
}
