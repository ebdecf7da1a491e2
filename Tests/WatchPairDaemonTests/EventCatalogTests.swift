import Foundation
import Testing
import WatchPairCore
import WatchPairWire

@testable import WatchPairDaemon
@testable import WatchPairHost

/// Every event kind that exists — the engine's, the reliability layer's and keyed sync's — against
/// systemd/watchpair.catalog: one entry per kind with its `MESSAGE_ID`, and a kind for every entry.
@Suite("Event catalog")
struct EventCatalogTests {
    /// Every vocabulary the daemons write.
    static let kinds: [DiagnosticEvent.Kind] =
        CoreEventKind.allCases.map(DiagnosticEvent.Kind.init) + LayerEventKind.allCases.map(DiagnosticEvent.Kind.init)
        + SyncEventKind.allCases.map(DiagnosticEvent.Kind.init)
    /// Every vocabulary's fields.
    static let fields: [[EventField.Name]] = [CoreEventKind.fields, LayerEventKind.fields, SyncEventKind.fields]

    static func catalog() throws -> String {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../systemd/watchpair.catalog").standardized.path
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The catalog's entries: each `-- <MESSAGE_ID>` line and the text up to the next one.
    static func entries(_ catalog: String) -> [(id: String, text: String)] {
        var entries: [(id: String, text: String)] = []
        for line in catalog.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("-- ") {
                entries.append((String(line.dropFirst(3)), ""))
            } else if !entries.isEmpty {
                entries[entries.count - 1].text += line + "\n"
            }
        }
        return entries
    }

    /// What is wrong between `kinds` and `catalog`; empty when each kind has one entry with its
    /// `MESSAGE_ID` that names its `WC_EVENT`, and each entry is a kind's.
    static func problems(kinds: [DiagnosticEvent.Kind], catalog: String) -> [String] {
        let entries = entries(catalog)
        var problems: [String] = []
        for kind in kinds {
            let mine = entries.filter { $0.id == kind.messageID }
            if mine.isEmpty { problems.append("\(kind.name): no catalog entry -- \(kind.messageID)") }
            if mine.count > 1 { problems.append("\(kind.name): \(mine.count) catalog entries") }
            if let entry = mine.first, !entry.text.contains("WC_EVENT=\(kind.name).") {
                problems.append("\(kind.name): its entry does not name WC_EVENT=\(kind.name)")
            }
        }
        let ids = Set(kinds.map(\.messageID))
        for entry in entries where !ids.contains(entry.id) {
            problems.append("catalog entry -- \(entry.id) is no kind's")
        }
        return problems
    }

    @Test func everyKindHasItsEntryAndEveryEntryAKind() throws {
        #expect(Self.problems(kinds: Self.kinds, catalog: try Self.catalog()) == [])
        #expect(Self.entries(try Self.catalog()).count == Self.kinds.count)
    }

    @Test("a kind without an entry is reported", arguments: [CoreEventKind.appOpened.messageID, LayerEventKind.requestHeld.messageID, SyncEventKind.syncFailed.messageID])
    func aRemovedEntryIsFound(id: String) throws {
        let catalog = try Self.catalog()
        let kept = Self.entries(catalog).filter { $0.id != id }.map { "-- \($0.id)\n\($0.text)" }.joined()
        let kind = try #require(Self.kinds.first { $0.messageID == id })
        #expect(Self.problems(kinds: Self.kinds, catalog: kept) == ["\(kind.name): no catalog entry -- \(id)"])
    }

    @Test("an entry without a kind is reported", arguments: [DiagnosticEvent.Kind.idleExit, .recoveryFailed, .syncIgnored])
    func aRemovedKindIsFound(kind: DiagnosticEvent.Kind) throws {
        let problems = Self.problems(kinds: Self.kinds.filter { $0 != kind }, catalog: try Self.catalog())
        #expect(problems == ["catalog entry -- \(kind.messageID) is no kind's"])
    }

    @Test func namesMessageIDsAndFieldsAreUniqueAcrossVocabularies() {
        #expect(Set(Self.kinds.map(\.name)).count == Self.kinds.count)
        #expect(Set(Self.kinds.map(\.messageID)).count == Self.kinds.count)
        #expect(Self.kinds.allSatisfy { $0.messageID.count == 32 && $0.messageID.allSatisfy(\.isHexDigit) && $0.messageID == $0.messageID.lowercased() })
        let all = Self.fields.flatMap { $0 }
        #expect(Set(all).count == all.count, "a vocabulary's field would overwrite another's")
        #expect(all.map(\.description) == [
            "WC_CHANNEL", "WC_TRANSFER_ID", "WC_FILE_NAME", "WC_FILE_BYTES", "WC_FILE_OFFSET", "WC_SEQ", "WC_ERROR_CODE",
            "WC_DURATION_US", "WC_QUIRK", "WC_REQUEST_TYPE", "WC_REQUEST_ID", "WC_ATTEMPT", "WC_STRATEGY", "WC_HEALTH", "WC_SYNC_KEY",
            "WC_SYNC_REVISION",
        ])
    }

    @Test("every kind reaches every sink and reads back from the history", arguments: kinds)
    func everySinkTakesEveryKind(kind: DiagnosticEvent.Kind) throws {
        let event = DiagnosticEvent(
            kind, role: .watch, "a \(kind.name)", request: .init(type: "Ping", attempt: 2, syncKey: "list"),
            timestamp: Date(timeIntervalSince1970: 1_795_000_000))
        let journal = Dictionary(uniqueKeysWithValues: event.journalFields(identifier: "watchd"))
        #expect(journal["WC_EVENT"] == kind.name && journal["MESSAGE_ID"] == kind.messageID)
        #expect(journal["PRIORITY"] == String(kind.defaultSeverity.rawValue))
        #expect(journal["WC_REQUEST_TYPE"] == "Ping" && journal["WC_ATTEMPT"] == "2" && journal["WC_SYNC_KEY"] == "list")
        #expect(event.stderrLine(identifier: "watchd", pid: 9).contains("]: \(kind.name) a \(kind.name) role=watch requestType=Ping attempt=2 syncKey=list"))
        let line = try JSONValue.parse(utf8: event.historyLine.dropLast())
        #expect(line == event.controlJSON)
        #expect(DiagnosticEvent(controlJSON: line) == event)
    }
}
