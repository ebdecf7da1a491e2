import ExampleConsole
import Foundation
import ReliableShared
import WatchConnection
import WatchConnectionWCSession
import WatchConnectivity

// ReliablePhone: the iPhone app of a running app, on the WatchConnection layer. Run it with
// WATCHPAIR_ROLE=phone (and the paths of docs/WatchConnectivity.md); type `goal KM`, `health` or
// `recover`. docs/ReliableSync.md walks through it.
let app = PhoneApp(connection: WatchConnection(session: WCSession.default, configuration: ExampleStorage.configuration(daemon: "phoned")))
Task {
    await app.start()
    for await line in Console.commands() { app.perform(line.command, line.argument) }
}
dispatchMain()
