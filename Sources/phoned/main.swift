import WatchPairDaemon

// phoned: the iPhone app of the pair. Everything lives in WatchPairDaemon; see `phoned --help`.
DaemonMain.runTasksOnEventLoops()
await DaemonMain.run(role: .phone)
