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
            "MESSAGE", "MESSAGE_ID", "PRIORITY", "SYSLOG_IDENTIFIER", "WC_EVENT", "WC_ROLE", "WC_PAIR",
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
            "MESSAGE", "MESSAGE_ID", "PRIORITY", "SYSLOG_IDENTIFIER", "WC_EVENT", "WC_ROLE", "WC_PAIR",
        ])
    }

    @Test func journalFieldsNameThePair() {
        #expect(Dictionary(uniqueKeysWithValues: bare.journalFields(identifier: "phoned"))["WC_PAIR"] == "default")
        #expect(Dictionary(uniqueKeysWithValues: bare.journalFields(identifier: "phoned", pair: "ci-3"))["WC_PAIR"] == "ci-3")
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

    @Test func fileEventsCarryNameSizeAndOffset() {
        let event = DiagnosticEvent(
            .fileProgress, role: .phone, "file a.bin at 30%", channel: .file, transferId: UUID(),
            file: DiagnosticEvent.FileFields(name: "a b.bin", bytes: 1000, offset: 300), seq: 4,
            timestamp: Date(timeIntervalSince1970: 1_700_000_000))
        let fields = Dictionary(uniqueKeysWithValues: event.journalFields(identifier: "phoned"))
        #expect(fields["WC_CHANNEL"] == "file" && fields["WC_FILE_NAME"] == "a b.bin")
        #expect(fields["WC_FILE_BYTES"] == "1000" && fields["WC_FILE_OFFSET"] == "300")
        #expect(fields["MESSAGE_ID"] == "5e1d0a3c6f7b4b2a9c1e8d7f60a1b231")
        #expect(event.stderrLine(identifier: "phoned", pid: 7).contains(" fileName=\"a b.bin\" fileBytes=1000 fileOffset=300 seq=4"))
        guard case .object(let object) = event.controlJSON else {
            Issue.record("not an object")
            return
        }
        #expect(object["fileName"] == .string("a b.bin") && object["fileBytes"] == .integer(1000) && object["fileOffset"] == .integer(300))
        // The history file reads it back whole.
        #expect(DiagnosticEvent(controlJSON: event.controlJSON) == event)
    }

    @Test func layerEventsCarryTheirRequestIdAndAttempt() {
        let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        let event = DiagnosticEvent(
            .deliveryFailed, role: .phone, "request Greet failed; retrying", errorCode: .deliveryFailed,
            request: DiagnosticEvent.RequestFields(type: "Greet", id: id, attempt: 2),
            timestamp: Date(timeIntervalSince1970: 1_700_000_000))
        let fields = Dictionary(uniqueKeysWithValues: event.journalFields(identifier: "phoned"))
        #expect(fields["WC_REQUEST_TYPE"] == "Greet" && fields["WC_REQUEST_ID"] == id.uuidString)
        #expect(fields["WC_ATTEMPT"] == "2")
        #expect(event.stderrLine(identifier: "phoned", pid: 7).hasSuffix("requestType=Greet requestId=\(id.uuidString) attempt=2"))
        guard case .object(let object) = event.controlJSON else {
            Issue.record("not an object")
            return
        }
        #expect(object["attempt"] == .integer(2))
        #expect(DiagnosticEvent(controlJSON: event.controlJSON) == event, "the history file reads the attempt back")
    }

    @Test func eventLogKeepsTheNewestAndCountsWhatAFollowerMissed() {
        let log = EventLog(capacity: 3)
        let start: UInt64 = 0  // the first position: a follower that started before any event
        for n in 1...5 { log.append(DiagnosticEvent(.messageSent, role: .phone, "m\(n)")) }
        #expect(log.recent.map(\.message) == ["m3", "m4", "m5"])
        let (events, next, dropped) = log.read(from: start)
        #expect(events.map(\.message) == ["m3", "m4", "m5"] && next == 5 && dropped == 2)
        let (none, same, zero) = log.read(from: next)
        #expect(none.isEmpty && same == 5 && zero == 0)
    }

    @Test func eventLogAllocatesAsEventsArriveAndNeverBeyondItsCapacity() {
        let log = EventLog(capacity: 1_000)
        #expect(log.allocatedSlots == 0, "an idle daemon's log holds no slots")
        for n in 1...100 { log.append(DiagnosticEvent(.messageSent, role: .phone, "m\(n)")) }
        #expect((100..<1_000).contains(log.allocatedSlots))
        for n in 101...2_500 { log.append(DiagnosticEvent(.messageSent, role: .phone, "m\(n)")) }
        #expect(log.allocatedSlots == 1_000, "full, the ring is exactly its capacity")
        #expect(log.recent.count == 1_000 && log.recent.first?.message == "m1501" && log.recent.last?.message == "m2500")
        let (events, next, dropped) = log.read(from: 1_400)
        #expect(events.count == 1_000 && events.first?.message == "m1501" && next == 2_500 && dropped == 100)
    }
}
