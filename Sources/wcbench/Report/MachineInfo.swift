import Foundation
import Glibc

/// The machine a run measured, recorded next to the numbers so they can be compared fairly.
struct MachineInfo: Codable, Sendable {
    /// Online CPUs.
    var nproc: Int
    /// `uname -r`.
    var kernel: String
    /// `uname -v`.
    var kernelVersion: String
    /// The CPU model from /proc/cpuinfo.
    var cpuModel: String
    /// Physical memory, MiB.
    var memoryMiB: Int
    /// The state directory's file system type (from /proc/self/mountinfo), e.g. `ext4`.
    var stateFileSystem: String
    /// Its mount options, e.g. `rw,relatime`.
    var stateMountOptions: String
    /// Its source device.
    var stateDevice: String
    /// /proc/loadavg when the run started: other work on the machine skews every number.
    var loadAverageAtStart: String
    /// /proc/loadavg when it ended.
    var loadAverageAtEnd: String?
    /// The share of the CPUs' time other work used in the quarter second before the run started
    /// (/proc/stat), 0...1: unlike the load average it does not remember a run that just ended.
    var busyBeforeStart: Double?

    /// Reads the machine's description; `stateDirectory` must exist.
    static func current(stateDirectory: String) -> MachineInfo {
        var names = utsname()
        uname(&names)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        let mount = mountEntry(for: stateDirectory)
        return MachineInfo(
            nproc: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
            kernel: field(names.release),
            kernelVersion: field(names.version),
            cpuModel: cpuModel(),
            memoryMiB: Int(sysconf(Int32(_SC_PHYS_PAGES)) * sysconf(Int32(_SC_PAGESIZE)) / (1 << 20)),
            stateFileSystem: mount?.type ?? "unknown",
            stateMountOptions: mount?.options ?? "unknown",
            stateDevice: mount?.device ?? "unknown",
            loadAverageAtStart: loadAverage(),
            busyBeforeStart: busyShare(over: 0.25))
    }

    /// A warning when other work kept the CPUs busy just before the run: half their time or more. Then
    /// waking a thread costs next to nothing (no CPU is idle), the raw ping-pong measured up to four times
    /// faster than on a quiet machine, and every ratio to it is inflated by as much (BENCHMARKS.md, "The
    /// floor of four crossings"); the relay floor of the same run pays the same wake-ups and stays comparable.
    var busyNote: String? {
        guard let busy = busyBeforeStart, busy >= 0.5 else { return nil }
        return "other work kept the CPUs \(Int((busy * 100).rounded()))% busy just before the run: ratios to the raw "
            + "ping-pong are inflated; compare the daemons with the relay floor of this run, or run again when quiet"
    }

    /// The share of all CPUs' time spent neither idle nor waiting for I/O over `seconds` (/proc/stat's
    /// first line, sampled twice); nil when it cannot be read.
    static func busyShare(over seconds: Double) -> Double? {
        func sample() -> (busy: Double, total: Double)? {
            guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
                let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
            else { return nil }
            let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
            guard fields.count >= 5 else { return nil }
            let total = fields.prefix(8).reduce(0, +)
            return (total - fields[3] - fields[4], total)
        }
        guard let before = sample() else { return nil }
        Monotonic.sleep(seconds: seconds)
        guard let after = sample(), after.total > before.total else { return nil }
        return (after.busy - before.busy) / (after.total - before.total)
    }

    /// The first three fields of /proc/loadavg.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    private static func cpuModel() -> String {
        let text = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown"
    }

    /// The mount holding `path`: the longest mount point that is a prefix of its real path.
    private static func mountEntry(for path: String) -> (type: String, options: String, device: String)? {
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return nil }
        var best: (length: Int, type: String, options: String, device: String)?
        for line in text.split(separator: "\n") {
            // id parent major:minor root mountpoint options [optional...] - type source superoptions
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2 else { continue }
            let left = halves[0].split(separator: " ")
            let right = halves[1].split(separator: " ")
            guard left.count >= 6, right.count >= 2 else { continue }
            let point = String(left[4]).replacingOccurrences(of: "\\040", with: " ")
            let matches = real == point || point == "/" || real.hasPrefix(point + "/")
            guard matches, point.count >= (best?.length ?? -1) else { continue }
            best = (point.count, String(right[0]), String(left[5]), String(right[1]))
        }
        return best.map { ($0.type, $0.options, $0.device) }
    }
}
