import ExampleConsole
import Foundation
import ShoppingList

// PhoneSync: the iPhone app of a shopping list on KeyedSync (Examples/ByHand/PhoneSync is the same app
// with the sync written by hand). Run it with WATCHPAIR_ROLE=phone (and the paths of
// docs/WatchConnectivity.md); type `add ITEM`, `done ITEM`, `sync` or `list`.
let list = ShoppingList(side: .phone)
if list.items.value == nil { list.add("milk"); list.add("eggs") }
list.report()
Console.readCommands { command, argument in
    MainActor.assumeIsolated {
        switch command {
        case "add": list.add(argument)
        case "done": list.complete(argument)
        case "sync": Task { await list.syncNow() }
        case "list": list.report()
        default: Console.report("unknown-command", ["command": command])
        }
    }
}
dispatchMain()
