import Foundation
import Glibc

/// A snapshot of one process's resource use from /proc.
struct ProcessStats: Sendable {
    /// Resident set size, bytes (`VmRSS`).
    var rssBytes: Int
    /// Peak resident set size, bytes (`VmHWM`).
    var peakRSSBytes: Int
    /// Bytes this process caused to be written to storage (`write_bytes` of /proc/PID/io).
    var storageWriteBytes: Int
    /// User + system CPU time, seconds.
    var cpuSeconds: Double

    /// Reads the snapshot of `pid`.
    ///
    /// - Throws: when /proc/PID/status cannot be read (the process is gone). A missing io file
    ///   (kernel without task I/O accounting) reads as 0 bytes.
    static func of(_ pid: pid_t) throws(BenchError) -> ProcessStats {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            throw BenchError("cannot read /proc/\(pid)/status (the process is gone?)")
        }
        func kib(_ name: String) -> Int {
            for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
                let number = line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ").first
                return (number.flatMap { Int($0) } ?? 0) * 1024
            }
            return 0
        }
        var written = 0
        if let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) {
            for line in io.split(separator: "\n") where line.hasPrefix("write_bytes:") {
                written = Int(line.dropFirst("write_bytes:".count).trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        var cpu = 0.0
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        {
            // Fields after "(comm)": state is field 3; utime and stime are fields 14 and 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) {
                cpu = (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
            }
        }
        return ProcessStats(rssBytes: kib("VmRSS"), peakRSSBytes: kib("VmHWM"), storageWriteBytes: written, cpuSeconds: cpu)
    }

    /// Bytes allocated on disk by the files directly in `directory` (`st_blocks` × 512).
    static func diskUsage(of directory: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var total = 0
        for name in names {
            var info = stat()
            if lstat("\(directory)/\(name)", &info) == 0 { total += Int(info.st_blocks) * 512 }
        }
        return total
    }
}
