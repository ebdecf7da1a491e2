import Foundation
import Glibc
import WatchPairWire

/// Section `file`: file transfers through the daemons next to a raw Unix-socket copy of the same bytes.
///
/// A linked pair (power durability). For each size, repeated, alternating: the raw copy (``RawFileCopy``:
/// file → socket → file, one fdatasync) and a transfer through the daemons, measured as an app sees it:
/// from `transferFile` (phoned copies the file into its spool, fsynced, before it answers) to the
/// `finished` event of its `follow` stream (watchd holds the whole file, verified, durably). Reported:
/// throughput of both (total bytes over total time), their ratio (target ≥ 50%), the accept time, and the
/// daemons' CPU and fsyncs per MiB over the daemon transfers. Beside them, the promise's floor in the same
/// run: a durable file copy (``RawFileCopy/durableCopy(_:to:)``, what `transferFile` must do before it
/// returns) followed by the raw copy, whose ratio to the raw copy is the best the daemons can reach; and the
/// same with the promise's other fsyncs (``RawFileCopy/promiseSyncs(in:)``: the copy's folder, the sender's
/// and the receiver's record), which decide a small file's floor.
/// `--quick`: one small size, a smoke check.
struct FileBench {
    let context: BenchContext

    /// One size and how many times it is sent each way.
    struct Size {
        var bytes: Int
        var repetitions: Int
        var name: String { bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB" }
        var key: String { bytes >= 1 << 20 ? "\(bytes >> 20)MiB" : "\(bytes >> 10)KiB" }
    }

    /// The issue's sizes (1 MiB and 100 MiB); `--quick` sends 1 MiB twice.
    var sizes: [Size] {
        context.quick ? [Size(bytes: 1 << 20, repetitions: 2)] : [Size(bytes: 1 << 20, repetitions: 20), Size(bytes: 100 << 20, repetitions: 3)]
    }

    func run() throws(BenchError) {
        let pair = try context.makePair()
        defer { pair.stopAll() }
        try pair.start(.watch)
        try pair.start(.phone)
        let phone = try BenchConnection.connect(pair.controlPath(.phone), retryUntil: context.phaseDeadline())
        let files = "\(context.runDirectory)/files"
        do {
            try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        } catch {
            throw BenchError("cannot create \(files): \(error)")
        }
        // Warm-up: links the pair and warms both stores and spools.
        let warmUp = try Self.makeFile("\(files)/warm-up.bin", bytes: 64 << 10)
        _ = try transfer(warmUp, through: phone, pair: pair)

        for size in sizes {
            context.progress("file: \(size.name), \(size.repetitions) times raw and through the daemons")
            let source = try Self.makeFile("\(files)/\(size.key).bin", bytes: size.bytes)
            // One window over every repetition: between the transfers the daemons only idle (the raw copy
            // is this process's work), so their CPU and fsyncs are the transfers'.
            let meter = try PairMeter(pair: pair, perf: context.binaries.perf, name: "file-\(size.key)", profiling: context.profiling)
            var raw = 0.0, copying = 0.0, syncing = 0.0, daemons = 0.0, accepting = 0.0
            try meter.begin()
            for _ in 0..<size.repetitions {
                // Alternating, so all see the same noise of a shared machine.
                raw += try RawFileCopy.copy(source, to: "\(files)/raw-copy.bin")
                unlink("\(files)/raw-copy.bin")
                copying += try RawFileCopy.durableCopy(source, to: "\(files)/raw-copy.bin")
                unlink("\(files)/raw-copy.bin")
                syncing += try RawFileCopy.promiseSyncs(in: files)
                let timing = try transfer(source, through: phone, pair: pair)
                daemons += timing.total
                accepting += timing.accepted
            }
            let usage = try meter.end()
            unlink(source)
            report(
                size: size, raw: raw, copying: copying, syncing: syncing, daemons: daemons, accepting: accepting, usage: usage,
                fsyncProblem: meter.fsyncProblem)
        }
        for failure in pair.stopAll() { throw failure }
    }

    /// What one transfer took: until phoned accepted it, and until watchd held it.
    struct Timing {
        var accepted: Double
        var total: Double
    }

    /// Sends `path` with `transferFile` and `follow`, waits for `finished`, then removes the landed file.
    private func transfer(_ path: String, through phone: BenchConnection, pair: DaemonPair) throws(BenchError) -> Timing {
        let deadline = context.phaseDeadline()
        let request = phone.request("transferFile") {
            $0.set("path", path)
            $0.set("follow", true)
        }
        let start = Monotonic.now()
        try phone.send(request)
        var accepted: UInt64?
        while true {
            let line = try phone.readLine(deadline: deadline)
            guard line.id == request.id else { continue }
            if line.event == nil {
                guard line.ok == true else { throw BenchError("transferFile \(path): \(line.errorDescription)") }
                accepted = Monotonic.now()
                continue
            }
            if line.event == "progress" { continue }
            guard line.event == "finished" else { throw BenchError("transferFile \(path) ended \(line.event ?? "?"): \(String(describing: line.data))") }
            break
        }
        let end = Monotonic.now()
        try removeLanded((path as NSString).lastPathComponent, pair: pair, deadline: deadline)
        return Timing(accepted: Monotonic.seconds(start, accepted ?? end), total: Monotonic.seconds(start, end))
    }

    /// watchd lands a file in its `files/` directory just after it answered the phone: waits for it and
    /// removes it, so every repetition lands under the same name and the disk does not fill.
    private func removeLanded(_ name: String, pair: DaemonPair, deadline: UInt64) throws(BenchError) {
        let landed = "\(pair.statePath(.watch))/files/\(name)"
        while unlink(landed) != 0 {
            guard errno == ENOENT, Monotonic.now() < deadline else { throw BenchError.system("removing \(landed)", errno: errno) }
            Monotonic.sleep(seconds: 0.001)
        }
    }

    private func report(
        size: Size, raw: Double, copying: Double, syncing: Double, daemons: Double, accepting: Double, usage: PairMeter.Usage,
        fsyncProblem: String?
    ) {
        let report = context.report
        let key = "file.\(size.key)"
        let mib = Double(size.bytes * size.repetitions) / Double(1 << 20)
        let rawRate = mib / raw
        let rate = mib / daemons
        report.add("file", "\(key).raw", "\(size.name) ×\(size.repetitions): raw Unix-socket copy (file → socket → file, fdatasync)", rawRate, "MiB/s")
        report.add(
            "file", "\(key).rate", "\(size.name) ×\(size.repetitions): through the daemons (power), transferFile → finished", rate, "MiB/s",
            target: Target(comparison: ">=", limit: rawRate / 2, text: "≥ 50% of the raw copy"),
            ratio: Ratio(factor: rate / rawRate, baseline: "raw Unix-socket copy, \(size.name)", baselineValue: rawRate))
        report.add(
            "file", "\(key).durableCopy", "\(size.name) ×\(size.repetitions): durable file copy (file → file, fsync), as transferFile's", mib / copying, "MiB/s",
            detail: true)
        // The promise's floor: no transfer can finish before its durable copy and a raw copy of the bytes.
        let floor = mib / (copying + raw)
        report.add(
            "file", "\(key).floor", "\(size.name) ×\(size.repetitions): floor of the promise (durable copy, then raw copy)", floor, "MiB/s",
            ratio: Ratio(factor: floor / rawRate, baseline: "raw Unix-socket copy, \(size.name)", baselineValue: rawRate))
        // With the promise's other fsyncs too (the copy's folder, the two records): what a file whose copies
        // are short, as 1 MiB, cannot go below.
        let synced = mib / (copying + syncing + raw)
        report.add(
            "file", "\(key).floorSynced",
            "\(size.name) ×\(size.repetitions): floor of the promise with its fsyncs (durable copy, its folder, two records, raw copy)",
            synced, "MiB/s",
            ratio: Ratio(factor: synced / rawRate, baseline: "raw Unix-socket copy, \(size.name)", baselineValue: rawRate))
        report.add(
            "file", "\(key).accept", "\(size.name): accepted (spool copy, fsynced)", accepting / Double(size.repetitions) * 1000, "ms")
        report.add("file", "\(key).cpuPerMiB", "\(size.name): daemon CPU per MiB", usage.totalCPU / mib * 1000, "ms")
        for role in Role.allCases {
            report.add(
                "file", "\(key).cpuPerMiB.\(role.daemonName)", "\(size.name): CPU per MiB, \(role.daemonName)",
                (usage.cpuSeconds[role] ?? 0) / mib * 1000, "ms", detail: true)
        }
        if let fsyncs = usage.totalFsyncs {
            report.add("file", "\(key).fsyncsPerMiB", "\(size.name): fsyncs per MiB (both daemons)", Double(fsyncs) / mib, "", detail: true)
        } else {
            report.add("file", "\(key).fsyncsPerMiB", "\(size.name): fsyncs per MiB", nil, "", note: fsyncProblem ?? "unavailable", detail: true)
        }
        report.add(
            "file", "\(key).storageBytesPerMiB", "\(size.name): bytes written to storage per MiB sent (both daemons)",
            Double(usage.totalWriteBytes) / mib, "B", detail: true)
    }

    /// `bytes` random bytes (incompressible, as a photo or a workout file) at `path`.
    static func makeFile(_ path: String, bytes: Int) throws(BenchError) -> String {
        guard let random = FileHandle(forReadingAtPath: "/dev/urandom") else { throw BenchError("cannot open /dev/urandom") }
        defer { try? random.close() }
        guard FileManager.default.createFile(atPath: path, contents: nil), let output = FileHandle(forWritingAtPath: path) else {
            throw BenchError("cannot create \(path)")
        }
        defer { try? output.close() }
        var left = bytes
        while left > 0 {
            let chunk = random.readData(ofLength: min(left, RawFileCopy.bufferSize))
            output.write(chunk)
            left -= chunk.count
        }
        return path
    }
}
