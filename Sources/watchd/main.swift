import WatchPairDaemon

// watchd: the Apple Watch app of the pair. Everything lives in WatchPairDaemon; see `watchd --help`.
await DaemonMain.run(role: .watch)
