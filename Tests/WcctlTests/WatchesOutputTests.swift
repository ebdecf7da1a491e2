import Testing
import WatchPairCLI
import WatchPairWire

/// `wcctl watches` for people (docs/Watches.md): one aligned row per watch, the session last.
@Suite("wcctl watches output")
struct WatchesOutputTests {
    @Test("a table with the active watch starred, what is queued per watch, and the session's state")
    func table() throws {
        let result = try JSONValue.parse(#"""
            {"active":"right","session":"inactive","watches":[
             {"name":"left","active":false,"bound":true,"paired":true,"installed":true,"reachable":true,
              "queued":{"userInfo":2,"files":0,"context":1}},
             {"name":"right","active":true,"bound":false,"paired":true,"installed":false,"reachable":false,
              "queued":{"userInfo":0,"files":0,"context":0}}]}
            """#)
        #expect(OutputFormatter.watchesLines(result) == [
            "NAME   ACTIVE  PAIRED  INSTALLED  REACHABLE  QUEUED",
            "left           yes     yes        yes        2 userInfo, 0 files, 1 context",
            "right  *       yes     no         no         0 userInfo, 0 files, 0 context",
            "session: inactive",
        ])
    }
}
