import Foundation
import Glibc

/// A process's resident memory by kind and by mapping, from `/proc/PID/smaps`.
///
/// RSS counts every page mapped into the process, also pages of shared libraries other processes use
/// and file pages the kernel can drop and read again at any time; the breakdown says which is which:
/// anonymous pages (heap, stacks, relocated data: the process's own) against file-backed ones (code and
/// read-only data of the executable and its libraries), and PSS (each shared page divided among the
/// processes mapping it).
struct MemoryMap: Sendable {
    /// One file (or `[anon]`, `[heap]`, `[stack]`) and what of it is resident, KiB.
    struct Mapping: Sendable {
        var name: String
        var rssKiB: Int
        var anonymousKiB: Int
    }

    var rssKiB = 0
    var pssKiB = 0
    var anonymousKiB = 0
    /// Pages only this process maps (clean and dirty): what stopping it would free.
    var privateKiB = 0
    /// Threads of the process (each has a stack and may have a malloc arena).
    var threads = 0
    /// Per file, largest first; anonymous mappings are summed as `[anon]`.
    var mappings: [Mapping] = []

    /// Resident pages backed by a file (RSS − anonymous; the daemons map no shared memory).
    var fileBackedKiB: Int { rssKiB - anonymousKiB }

    /// Reads the map of `pid`.
    static func of(_ pid: pid_t) throws(BenchError) -> MemoryMap {
        guard let text = readWhole("/proc/\(pid)/smaps") else {
            throw BenchError("cannot read /proc/\(pid)/smaps (the process is gone?)")
        }
        var map = MemoryMap()
        var byName: [String: Mapping] = [:]
        var current = "[anon]"
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if !first.hasSuffix(":") {
                // A mapping's header: address range, permissions, offset, device, inode[, path].
                current = fields.count > 5 ? (fields[5...].joined(separator: " ") as NSString).lastPathComponent : "[anon]"
                continue
            }
            guard fields.count >= 2, let kib = Int(fields[1]) else { continue }
            switch first {
            case "Rss:":
                map.rssKiB += kib
                byName[current, default: Mapping(name: current, rssKiB: 0, anonymousKiB: 0)].rssKiB += kib
            case "Pss:": map.pssKiB += kib
            case "Anonymous:":
                map.anonymousKiB += kib
                byName[current, default: Mapping(name: current, rssKiB: 0, anonymousKiB: 0)].anonymousKiB += kib
            case "Private_Clean:", "Private_Dirty:": map.privateKiB += kib
            default: break
            }
        }
        map.mappings = byName.values.filter { $0.rssKiB > 0 }.sorted { $0.rssKiB > $1.rssKiB }
        map.threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
        return map
    }

    /// The whole of a /proc file. /proc files report a size of 0 and are generated as they are read, so
    /// they are read to the end, not by their size.
    private static func readWhole(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The `count` largest mappings as `name 7.6 MiB (0.4 anon)`, for a note.
    func largest(_ count: Int) -> String {
        mappings.prefix(count).map { mapping in
            let mib = { (kib: Int) in String(format: "%.1f", Double(kib) / 1024) }
            return "\(mapping.name) \(mib(mapping.rssKiB)) MiB (\(mib(mapping.anonymousKiB)) anon)"
        }.joined(separator: ", ")
    }
}
