import Testing
import WatchPairWire

@Suite("Smoke")
struct SmokeTests {
    @Test("both daemons answer status")
    func status() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let run = try await pair.wcctl(["--json", "status"])
            #expect(run.status == 0, "\(run)")
            #expect(run.object?["role"] == .string("phone"), "\(run)")
        }
    }
}
