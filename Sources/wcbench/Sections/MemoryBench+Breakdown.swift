import Glibc
import WatchPairWire

// What an idle daemon's resident memory is made of, and the floor of any process on the same runtime.
extension MemoryBench {
    /// The resident memory of wcbench's own `_echo` process left alone `settleSeconds`: the same Swift
    /// runtime, Foundation and loader with nothing running, which no daemon can go below.
    func idleSwiftProcess() throws(BenchError) -> MemoryMap {
        let echo = try EchoPeer(context)
        defer { echo.stop() }
        Monotonic.sleep(seconds: context.counts.settleSeconds)
        let map = try MemoryMap.of(echo.process.pid)
        let mib = Double(1 << 10)
        let report = context.report
        report.add("memory", "memory.floor.rss", "a Swift process doing nothing (wcbench _echo), RSS", Double(map.rssKiB) / mib, "MiB")
        report.add("memory", "memory.floor.anonymous", "… of it anonymous", Double(map.anonymousKiB) / mib, "MiB", detail: true)
        return map
    }

    /// Rows for one idle daemon: anonymous against file-backed pages, PSS, private pages, threads; and its
    /// largest mappings as a note.
    func recordBreakdown(_ role: Role, pid: pid_t) throws(BenchError) {
        let map = try MemoryMap.of(pid)
        let name = role.daemonName
        let mib = Double(1 << 10)
        let report = context.report
        report.add("memory", "memory.idle.\(name).anonymous", "\(name) idle: anonymous (heap, stacks, relocated data)", Double(map.anonymousKiB) / mib, "MiB")
        report.add("memory", "memory.idle.\(name).fileBacked", "\(name) idle: file-backed (code, read-only data)", Double(map.fileBackedKiB) / mib, "MiB")
        report.add("memory", "memory.idle.\(name).pss", "\(name) idle: PSS (shared pages divided)", Double(map.pssKiB) / mib, "MiB")
        report.add("memory", "memory.idle.\(name).private", "\(name) idle: private pages", Double(map.privateKiB) / mib, "MiB", detail: true)
        report.add("memory", "memory.idle.\(name).threads", "\(name) idle: threads", Double(map.threads), "count")
        report.notes.append("memory: \(name) idle, largest mappings: \(map.largest(8))")
    }
}
