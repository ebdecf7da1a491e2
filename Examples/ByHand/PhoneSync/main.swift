import ExampleConsole
import Foundation

// PhoneSyncByHand: the iPhone app of a shopping list, with the sync written by hand (Examples/PhoneSync
// is the same app on KeyedSync). Run it with WATCHPAIR_ROLE=phone (and the paths of
// docs/WatchConnectivity.md); type `add ITEM`, `notify TEXT` or `ping`.
let manager = PhoneSessionManager.shared
manager.start()
Console.readCommands { command, argument in
    switch command {
    case "add": manager.add(argument)
    case "notify": manager.notify(argument)
    case "ping": manager.ping()
    default: Console.report("unknown-command", ["command": command])
    }
}
dispatchMain()
