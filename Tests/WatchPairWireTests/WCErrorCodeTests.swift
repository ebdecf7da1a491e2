import Testing
import WatchPairWire

@Suite struct WCErrorCodeTests {
    @Test func exitStatus() {
        #expect(WCErrorCode.notReachable.exitStatus == 107)
        #expect(WCErrorCode.messageReplyTimedOut.exitStatus == 112)
        #expect(WCErrorCode.genericError.exitStatus == 101)
        #expect(WCErrorCode.companionAppNotInstalled.exitStatus == 118)
    }

    @Test(arguments: WCErrorCode.allCases)
    func exitStatusFormula(code: WCErrorCode) {
        #expect(Int(code.exitStatus) == 100 + code.rawValue - 7000)
        #expect((100...118).contains(code.exitStatus))
    }

    @Test func everyCodeFitsTheWireField() {
        for code in WCErrorCode.allCases {
            #expect(UInt16(exactly: code.rawValue) != nil)
        }
    }

    @Test func frameErrorCodes() {
        #expect(FrameError.tooLarge(length: 2, limit: 1).code == .payloadTooLarge)
        let others: [FrameError] = [
            .truncated(bufferedBytes: 3), .badLength(0), .badChecksum(expected: 1, actual: 2), .unknownType(0x7F),
            .malformed(frameType: 2, reason: .shortBody), .unsupportedVersion(2),
        ]
        for error in others {
            #expect(error.code == .invalidParameter, "\(error)")
        }
    }

    @Test func frameErrorDescriptions() {
        #expect(FrameError.malformed(frameType: 2, reason: .invalidUTF8).description
            == "Malformed message frame: invalid UTF-8 in a string.")
        #expect(FrameError.badChecksum(expected: 0xE306_9283, actual: 1).description.contains("0xE3069283"))
        #expect(FrameError.unknownType(0x7F).description == "Unknown frame type 0x7F.")
    }

    @Test func failureDescription() {
        #expect(WCFailure(.notReachable, "The watch app is not running.").description
            == "WCError 7007 (notReachable): The watch app is not running.")
    }
}
