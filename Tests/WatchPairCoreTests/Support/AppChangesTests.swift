import Testing
import WatchPairCore

/// ``AppChanges``: each consumer reads only the kinds that moved, and a change is never missed.
@Suite("app changes")
struct AppChangesTests {
    @Test("a first look reads every kind; later looks read only the kinds fired since", arguments: [
        // (kinds fired between the two looks) → (kinds that moved)
        ([AppChanges.Kind](), [AppChanges.Kind]()),
        ([.userInfo], [.userInfo]),
        ([.finished, .finished], [.finished]),
        ([.context, .receivedFiles], [.context, .receivedFiles]),
        ([.finishedFiles, .userInfo, .finished], [.userInfo, .finished, .finishedFiles]),
    ])
    func movedKinds(fired: [AppChanges.Kind], moved: [AppChanges.Kind]) {
        let changes = AppChanges()
        changes.fire(.context)
        let first = changes.marks
        #expect(AppChanges.Kind.allCases.allSatisfy { first.moved($0, since: nil) }, "no earlier look: read everything")
        for kind in fired { changes.fire(kind) }
        let second = changes.marks
        #expect(AppChanges.Kind.allCases.filter { second.moved($0, since: first) } == moved)
        #expect(second.generation == first.generation + UInt64(fired.count), "any fires with every kind")
    }

    @Test("a kind's own signal fires for that kind only; any fires for all")
    func kindSignals() {
        let changes = AppChanges()
        let files = changes.signal(.receivedFiles).generation
        let any = changes.any.generation
        changes.fire(.userInfo)
        changes.fire(.finished)
        #expect(changes.signal(.receivedFiles).generation == files, "a file consumer is not woken by userInfo")
        #expect(changes.any.generation == any + 2)
        changes.fire(.receivedFiles)
        #expect(changes.signal(.receivedFiles).generation == files + 1)
    }

    @Test("a consumer waiting after its marks wakes for a change made after it looked")
    func waitAfterMarks() async {
        let changes = AppChanges()
        let marks = changes.marks
        changes.fire(.context)
        // Returns at once: `any` moved past the marks' generation.
        await changes.any.wait(after: marks.generation)
        #expect(changes.marks.moved(.context, since: marks))
        #expect(!changes.marks.moved(.userInfo, since: marks))
    }
}
