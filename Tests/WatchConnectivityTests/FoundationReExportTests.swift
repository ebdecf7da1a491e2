// Only Testing and WatchConnectivity on purpose: this file compiles only while `import WatchConnectivity`
// brings Foundation, as Apple's module does (KaneCheshire/Communicator's files import nothing else).
import Testing
import WatchConnectivity

/// A delegate in Communicator's shape: an `NSObject` subclass, with `URL` and `Data` in its state.
private final class CommunicatorStyleDelegate: NSObject, WCSessionDelegate {
    let directory = URL(fileURLWithPath: "/tmp/communicator", isDirectory: true)
    let blob = Data([0xCA, 0xFE])

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {}
}

@Suite("import WatchConnectivity brings Foundation")
struct FoundationReExportTests {
    @Test func foundationTypesNeedNoImportOfTheirOwn() {
        let delegate = CommunicatorStyleDelegate()
        let object: NSObject = delegate
        #expect(object.isEqual(delegate))
        #expect(delegate.directory.appendingPathComponent("blob").path == "/tmp/communicator/blob")
        #expect(delegate.blob == Data([0xCA, 0xFE]))
    }
}
