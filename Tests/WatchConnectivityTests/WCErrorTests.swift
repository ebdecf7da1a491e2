import Foundation
import Testing
import WatchPairWire

@testable import WatchConnectivity

@Suite("WCError")
struct WCErrorTests {
    @Test("codes have Apple's raw values and names")
    func codes() {
        #expect(WCError.Code.allCases.map(\.rawValue) == Array(7001...7019))
        #expect(WCError.Code.sessionNotSupported.rawValue == 7002)
        #expect(WCError.Code.sessionMissingDelegate.rawValue == 7003)
        #expect(WCError.Code.fileAccessDenied.rawValue == 7013)
        #expect(WCError.Code.watchOnlyApp.rawValue == 7019)
        #expect(WCError.notReachable == .notReachable)
        // Every engine code maps to the case of the same number.
        for code in WCErrorCode.allCases {
            #expect(WCError(WCFailure(code, "x")).code.rawValue == code.rawValue)
            #expect("\(WCError(WCFailure(code, "x")).code)" == code.name)
        }
    }

    @Test("bridges to NSError with domain WCErrorDomain")
    func bridging() {
        let error: any Error = WCError(.notReachable, message: "the watch app is not running")
        let bridged = error as NSError
        #expect(WCErrorDomain == "WCErrorDomain")
        #expect(WCError.errorDomain == WCErrorDomain)
        #expect(bridged.domain == WCErrorDomain)
        #expect(bridged.code == 7007)
        #expect(bridged.localizedDescription == "the watch app is not running")
        #expect((error as? WCError)?.code == .notReachable)
        #expect(WCError(.payloadTooLarge)._nsError.code == 7009)
        #expect(WCError(_nsError: bridged) == WCError(.notReachable, message: "the watch app is not running"))
        #expect(WCError(_nsError: NSError(domain: "Other", code: 7007)).code == .genericError)
        #expect(WCError(.deliveryFailed, userInfo: [NSLocalizedDescriptionKey: "why"]).localizedDescription == "why")
    }

    @Test("catch and switch patterns match codes")
    func patterns() {
        func fail() throws { throw WCError(.messageReplyTimedOut) }
        var matched = false
        do {
            try fail()
        } catch WCError.messageReplyTimedOut {
            matched = true
        } catch {
            Issue.record("not matched: \(error)")
        }
        #expect(matched)
        let foreign: any Error = NSError(domain: WCErrorDomain, code: 7007)
        #expect(WCError.Code.notReachable ~= foreign)
        #expect(!(WCError.Code.notReachable ~= WCError(.genericError)))
    }

    @Test("Hashable: equal codes and messages are equal")
    func hashable() {
        #expect(Set([WCError(.genericError), WCError(.genericError), WCError(.notReachable)]).count == 2)
    }
}
