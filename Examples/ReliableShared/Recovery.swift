import ExampleConsole
import WatchConnection

/// `attemptRecovery()` and its outcome as a `recovery` line: the "Try again" button of a health banner.
@MainActor
public func recover(_ connection: WatchConnection) async {
    await connection.attemptRecovery()
    Console.report("recovery", ["health": connection.sessionHealth.rawValue, "reachable": connection.isReachable])
}
