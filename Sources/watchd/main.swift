import WatchPairDaemon

// watchd: the Apple Watch app of the pair. Everything lives in WatchPairDaemon; see `watchd --help`.
DaemonMain.runTasksOnEventLoops()
await DaemonMain.run(role: .watch)
