// `WCSessionPair.setQuirk(_:_:on:)` takes `Quirk` and `QuirkSetting`: a test that imports the kit names
// them without a second import (WatchPairQuirks is no product of its own).
@_exported import WatchPairQuirks
