import Testing
import WatchPairCore

/// The fields a vocabulary adds to an event: names in both spellings, one value per name, order kept
/// for the journal and ignored by equality (a history line keeps none).
@Suite("Event fields")
struct EventFieldsTests {
    @Test(arguments: [("requestType", "REQUEST_TYPE"), ("durationUs", "DURATION_US"), ("seq", "SEQ"), ("syncRevision", "SYNC_REVISION")])
    func aNameIsItsKeyInCapitals(key: String, journal: String) {
        let name = EventField.Name(key)
        #expect(name.key == key && name.journal == journal && name.description == "WC_" + journal)
    }

    @Test func aNameHoldsOneValueInTheOrderItCame() {
        let b = EventField.Name("bField"), a = EventField.Name("aField")
        var fields: EventFields = [EventField(b, .string("x")), EventField(a, .integer(2))]
        fields[b] = .string("y")
        #expect(fields.map(\.name) == [b, a] && fields[b] == .string("y"))
        fields[b] = nil
        fields[b] = .integer(-1)
        #expect(fields.map(\.name) == [a, b] && fields[b]?.text == "-1")
        #expect(EventFields([EventField(a, .string("1")), EventField(a, .string("2"))]).map(\.value) == [.string("2")])
    }

    @Test func orderDoesNotMatterToEquality() {
        let a = EventField(EventField.Name("a"), .string("1")), b = EventField(EventField.Name("b"), .integer(1))
        #expect(EventFields([a, b]) == EventFields([b, a]))
        #expect(EventFields([a, b]).hashValue == EventFields([b, a]).hashValue)
        #expect(EventFields([a]) != EventFields([a, b]))
        #expect(EventFields([a]) != EventFields([EventField(a.name, .integer(1))]))
    }

    @Test func kindsAreTheSameByNameAndMessageID() {
        let kind = DiagnosticEvent.Kind.idleExit
        #expect(kind == DiagnosticEvent.Kind(CoreEventKind.idleExit))
        #expect(kind.name == "idleExit" && kind.messageID == CoreEventKind.idleExit.messageID && kind.defaultSeverity == .info)
        #expect(DiagnosticEvent.Kind(name: "idleExit", messageID: kind.messageID, priority: .warning) == kind, "as read back")
        #expect(DiagnosticEvent.Kind(name: "idleExit", messageID: CoreEventKind.appOpened.messageID, priority: .info) != kind)
    }
}
