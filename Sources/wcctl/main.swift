import WatchPairCLI

// Everything lives in WatchPairCLI so it can be tested; the executable only starts it.
WcctlMain.main()
