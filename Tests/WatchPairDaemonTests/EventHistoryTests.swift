import Foundation
import Testing
import WatchPairCore
import WatchPairWire

@testable import WatchPairHost

/// The event history file: what a restart reads back, its bound, and a line cut short by a crash.
@Suite("Event history")
struct EventHistoryTests {
    static func event(_ n: Int) -> DiagnosticEvent {
        DiagnosticEvent(
            .userInfoDelivered, role: .watch, "userInfo \(n) received", channel: .userInfo,
            transferId: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF"), seq: UInt64(n), duration: .microseconds(12),
            timestamp: Date(timeIntervalSince1970: 1_795_000_000 + Double(n) / 1000))
    }

    @Test func aReopenedHistoryHasEveryEventAsItWas() throws {
        let dir = try TemporaryDirectory()
        let (history, none) = EventHistory.open(directory: dir.path, logger: quietLogger)
        #expect(none.load().isEmpty)
        for n in 1...3 { history?.append(Self.event(n)) }
        history?.close()
        let (again, events) = EventHistory.open(directory: dir.path, logger: quietLogger)
        again?.close()
        #expect(events.load().map(\.controlJSON) == (1...3).map { Self.event($0).controlJSON })
    }

    @Test func fullSegmentsRotateSoAtMostTwoAreKept() throws {
        let dir = try TemporaryDirectory()
        let (history, _) = EventHistory.open(directory: dir.path, segmentLimit: 4, logger: quietLogger)
        for n in 1...11 { history?.append(Self.event(n)) }
        history?.close()
        // 1–4 rotated out at 9; 5–8 are the previous segment, 9–11 the current one.
        let (again, events) = EventHistory.open(directory: dir.path, segmentLimit: 4, logger: quietLogger)
        #expect(events.load().map(\.seq) == (5...11).map { UInt64($0) })
        // The current file's count survives the reopen: one more append fills it, the next rotates.
        again?.append(Self.event(12))
        again?.append(Self.event(13))
        again?.close()
        let (_, after) = EventHistory.open(directory: dir.path, segmentLimit: 4, logger: quietLogger)
        #expect(after.load().map(\.seq) == (9...13).map { UInt64($0) })
    }

    @Test func aBatchThatFillsTheFileRotatesBetweenItsWritesAndKeepsItsOrder() throws {
        let dir = try TemporaryDirectory()
        let (history, _) = EventHistory.open(directory: dir.path, segmentLimit: 4, logger: quietLogger)
        history?.append(Self.event(1))
        // 2–4 fill the file, 5–8 go to a new one, 9 to a third (5–8 then the previous segment).
        history?.append(contentsOf: (2...9).map(Self.event))
        history?.close()
        let (again, events) = EventHistory.open(directory: dir.path, segmentLimit: 4, logger: quietLogger)
        again?.close()
        #expect(events.load().map(\.seq) == (5...9).map { UInt64($0) })
    }

    @Test func aClosedHistoryTakesNoBatch() throws {
        let dir = try TemporaryDirectory()
        let (history, _) = EventHistory.open(directory: dir.path, segmentLimit: 2, logger: quietLogger)
        history?.append(contentsOf: (1...2).map(Self.event))
        history?.close()
        // Full and closed: the batch must neither rotate the file away nor reopen it.
        history?.append(contentsOf: (3...5).map(Self.event))
        let (_, events) = EventHistory.open(directory: dir.path, segmentLimit: 2, logger: quietLogger)
        #expect(events.load().map(\.seq) == [1, 2])
    }

    @Test func aLineCutShortByACrashIsSkippedAndTheNextEventIsKept() throws {
        let dir = try TemporaryDirectory()
        let (history, _) = EventHistory.open(directory: dir.path, logger: quietLogger)
        history?.append(Self.event(1))
        history?.close()
        let handle = try #require(FileHandle(forWritingAtPath: dir.path + "/" + EventHistory.currentFileName))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"event":"userInfoDeliv"#.utf8))
        handle.closeFile()
        let (again, events) = EventHistory.open(directory: dir.path, logger: quietLogger)
        #expect(events.load().map(\.seq) == [1])
        again?.append(Self.event(2))
        again?.close()
        let (_, after) = EventHistory.open(directory: dir.path, logger: quietLogger)
        #expect(after.load().map(\.seq) == [1, 2])
    }

    @Test func anUnwritableDirectoryKeepsEventsInMemoryOnly() {
        let (history, events) = EventHistory.open(directory: "/nonexistent/watchpair", logger: quietLogger)
        #expect(history == nil && events.load().isEmpty)
    }

    @Test func earlierEventsAreThoseOnDiskAtLaunchWhateverThisRunWritesAndRotates() throws {
        let dir = try TemporaryDirectory()
        let (history, _) = EventHistory.open(directory: dir.path, segmentLimit: 2, logger: quietLogger)
        for n in 1...3 { history?.append(Self.event(n)) }
        history?.close()
        let (again, earlier) = EventHistory.open(directory: dir.path, segmentLimit: 2, logger: quietLogger)
        // This run rotates both launch-time files away before anything reads them.
        for n in 4...9 { again?.append(Self.event(n)) }
        again?.close()
        #expect(earlier.load().map(\.seq) == [1, 2, 3])
        let (_, later) = EventHistory.open(directory: dir.path, segmentLimit: 2, logger: quietLogger)
        #expect(later.load().map(\.seq) == [7, 8, 9])
    }

    @Test func readingEarlierEventsLaterIsTheSameAsAppendingThemAtLaunch() async throws {
        let dir = try TemporaryDirectory()
        let (history, _) = EventHistory.open(directory: dir.path, segmentLimit: 4, logger: quietLogger)
        for n in 1...7 { history?.append(Self.event(n)) }
        history?.close()
        // As many of this run's events as: none, fewer than the room left, exactly it, more, past the capacity.
        for runEvents in [0, 2, 3, 6, 12] {
            let (again, earlier) = EventHistory.open(directory: dir.path, segmentLimit: 4, logger: quietLogger)
            again?.close()
            let lazy = EventLog(capacity: 10, earlier: earlier)
            let eager = EventLog(capacity: 10)
            for event in earlier.load() { eager.append(event) }
            for n in 0..<runEvents {
                lazy.append(Self.event(100 + n))
                eager.append(Self.event(100 + n))
            }
            let (events, next) = await lazy.history()
            #expect(events == eager.recent, "\(runEvents) events of this run")
            #expect(next == UInt64(runEvents) && lazy.read(from: next).events.isEmpty)
            // `since` before, inside and after the earlier events, and inside this run's.
            for since in [0, 1, 5, 7, 8, 101].map({ EventTimestamp.microseconds(Self.event($0).timestamp) }) {
                let older = eager.recent.lastIndex { EventTimestamp.microseconds($0.timestamp) < since }
                let expected = Array(eager.recent[(older.map { $0 + 1 } ?? 0)...])
                let (from, after) = await lazy.history(since: since)
                #expect(from == expected && after == next, "\(runEvents) events of this run, since \(since)")
            }
            lazy.append(Self.event(200))
            #expect(lazy.read(from: next).events.map(\.seq) == [200], "a follower goes on from the cursor")
        }
    }

    @Test func theNewestEarlierTimeComesFromTheLastWholeEventLine() async throws {
        let dir = try TemporaryDirectory()
        let (history, _) = EventHistory.open(directory: dir.path, segmentLimit: 2, logger: quietLogger)
        for n in 1...4 { history?.append(Self.event(n)) }
        history?.close()
        // A line cut short by a crash is not an event; the one before it is the newest.
        let handle = try #require(FileHandle(forWritingAtPath: dir.path + "/" + EventHistory.currentFileName))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"event":"userInfoDeliv"#.utf8))
        handle.closeFile()
        let (again, earlier) = EventHistory.open(directory: dir.path, segmentLimit: 2, logger: quietLogger)
        again?.close()
        #expect(await earlier.newestTimestamp() == EventTimestamp.microseconds(Self.event(4).timestamp))
        #expect(await EarlierEvents.none.newestTimestamp() == nil)
    }
}
