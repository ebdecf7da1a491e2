import ExampleConsole
import Foundation

// WatchSyncByHand: the Apple Watch app of the shopping list, with the sync written by hand
// (Examples/WatchSync is the same app on KeyedSync). Run it with WATCHPAIR_ROLE=watch (and the paths
// of docs/WatchConnectivity.md); type `done ITEM` or `add ITEM`.
let manager = WatchSessionManager.shared
manager.start()
Console.readCommands { command, argument in
    switch command {
    case "done": manager.complete(argument)
    case "add": manager.add(argument)
    default: Console.report("unknown-command", ["command": command])
    }
}
dispatchMain()
