import Glibc
import Testing
import WatchPairControlClient
import WatchPairWire

@testable import WatchPairCLI

@Suite("Exit statuses")
struct ExitStatusTests {
    @Test(arguments: [
        (7001, 101), (7007, 107), (7008, 108), (7009, 109), (7010, 110), (7012, 112), (7014, 114),
        (7018, 118), (7155, 255), (7156, 101), (6999, 101), (42, 101),
    ])
    func wcErrorCodesMapToOneHundredPlus(code: Int, status: Int32) {
        #expect(ExitStatus.wcError(code: code) == status)
    }

    @Test func everyKnownCodeAgreesWithTheWireModule() {
        for code in WCErrorCode.allCases {
            #expect(ExitStatus.wcError(code: code.rawValue) == code.exitStatus)
            #expect(CLIError(WCFailure(code, "x")).exitStatus == code.exitStatus)
        }
    }

    @Test func kindsMapToTheirStatuses() {
        #expect(CLIError(.usage, "x").exitStatus == 2)
        #expect(CLIError(.notRunning, "x").exitStatus == 3)
        #expect(CLIError(.failure, "x").exitStatus == 1)
        #expect(CLIError(.wcError(code: 7007, name: "notReachable"), "x").exitStatus == 107)
    }

    @Test func theErrorLineNamesTheCode() {
        let error = CLIError(WCFailure(.notReachable, "The watch app is not reachable."))
        #expect(error.line == "wcctl: error 7007 (notReachable): The watch app is not reachable.")
        #expect(CLIError(.notRunning, "phoned is not running").line == "wcctl: phoned is not running")
    }

    @Test(arguments: [
        (ENOENT, Int32(3), "phoned is not running (no control socket at /x/phoned.ctl)"),
        (ENOTDIR, Int32(3), "phoned is not running (no control socket at /x/phoned.ctl)"),
        (ECONNREFUSED, Int32(3), "phoned is not running (control socket /x/phoned.ctl refuses connections)"),
        (ENAMETOOLONG, Int32(2), "control socket path is longer than 107 bytes: /x/phoned.ctl"),
        (EACCES, Int32(1), "permission denied on phoned's control socket /x/phoned.ctl (join its group: sudo usermod -aG watchpair $USER, then log in again)"),
        (EIO, Int32(1), "cannot connect to phoned at /x/phoned.ctl: Input/output error"),
    ])
    func connectFailures(errno code: Int32, status: Int32, message: String) {
        let target = ControlTarget(role: .phone, path: "/x/phoned.ctl")
        let error = ControlClient.connectError(.system(operation: "connect", errno: code), target: target)
        #expect(error.exitStatus == status)
        #expect(error.message == message)
        #expect(error.errno == code)
    }
}
