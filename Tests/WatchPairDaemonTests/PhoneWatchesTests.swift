import Foundation
import Logging
import Testing
import WatchPairCore
import WatchPairWire

@testable import WatchPairDaemon
@testable import WatchPairHost

/// docs/Watches.md: phoned's watches without processes: its record, the operations' errors, and the 7016
/// its router answers for new content while a switch is in progress.
@Suite("phoned's watches")
struct PhoneWatchesTests {
    /// A phone listing `a` and `b`, its state in a fresh directory.
    static func phone() throws -> (PhoneWatches, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("phone-watches-\(UUID().uuidString)").path
        var configuration = DaemonConfiguration(role: .phone)
        configuration.paths = HostConfiguration.Paths(
            link: directory + "/phoned.sock", peerLink: directory + "/watchd.sock", control: directory + "/phoned.ctl",
            peerControl: directory + "/watchd.ctl", state: directory + "/phoned")
        configuration.watches = try ["a", "b"].map { try PairName(validating: $0) }
        return (try PhoneWatches(configuration: configuration, logger: Logger(label: "test")), directory)
    }

    @Test("while a switch is in progress new content is refused with 7016; reads and the rest pass")
    func refusesContentWhileInactive() throws {
        let (watches, directory) = try Self.phone()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(watches.activate()?.rawValue == "a")
        #expect(watches.refusal("transfer") == nil)
        #expect(watches.refusal("send") == nil)
        #expect(try watches.apply(.switchTo("b")) == [.reportInactive])
        for operation in PhoneWatches.contentOperations.sorted() {
            #expect(watches.refusal(operation)?.code == .sessionInactive, "\(operation)")
        }
        for operation in ["status", "watches", "receive", "transfers", "events", "wait"] {
            #expect(watches.refusal(operation) == nil, "\(operation)")
        }
        // The record keeps the switch: a restart is bound to b.
        let again = try PhoneWatches(configuration: watches.configuration, logger: Logger(label: "test"))
        #expect(again.activate()?.rawValue == "b")
    }

    @Test("the operations' errors: one watch (7008), an unknown watch, the active watch unpaired")
    func errors() async throws {
        let (watches, directory) = try Self.phone()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = watches.activate()
        let single = WatchOperations(watches: nil)
        #expect(throws: WCFailure.self) { try single.switchTo("a") }
        let operations = WatchOperations(watches: watches)
        #expect { try operations.switchTo("c") } throws: { ($0 as? WCFailure)?.code == .invalidParameter }
        await #expect { try await operations.unpair("a") } throws: { ($0 as? WCFailure)?.message.contains("is the active watch") == true }
        #expect(try operations.switchTo("a") == .object(["active": .string("a"), "switching": .bool(false)]))
    }
}
