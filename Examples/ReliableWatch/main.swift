import ExampleConsole
import Foundation
import ReliableShared
import WatchConnection
import WatchConnectionWCSession
import WatchConnectivity

// ReliableWatch: the Apple Watch app of a running app, on the WatchConnection layer. Run it with
// WATCHPAIR_ROLE=watch (and the paths of docs/WatchConnectivity.md); type `plan DAY`, `save KM`,
// `note TEXT`, `view SCREEN`, `health` or `recover`. docs/ReliableSync.md walks through it.
let app = WatchApp(connection: WatchConnection(session: WCSession.default, configuration: ExampleStorage.configuration(daemon: "watchd")))
Task {
    await app.start()
    for await line in Console.commands() { app.perform(line.command, line.argument) }
}
dispatchMain()
