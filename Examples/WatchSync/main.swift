import ExampleConsole
import Foundation
import ShoppingList

// WatchSync: the Apple Watch app of the shopping list on KeyedSync (Examples/ByHand/WatchSync is the
// same app with the sync written by hand). Run it with WATCHPAIR_ROLE=watch (and the paths of
// docs/WatchConnectivity.md); type `done ITEM`, `sync` or `list`.
let list = ShoppingList(side: .watch)
list.report()
Console.readCommands { command, argument in
    MainActor.assumeIsolated {
        switch command {
        case "done": list.complete(argument)
        case "sync": Task { await list.syncNow() }
        case "list": list.report()
        default: Console.report("unknown-command", ["command": command])
        }
    }
}
dispatchMain()
