import Dispatch
import Glibc
import Synchronization

/// What the file system gives two writers that fdatasync at the same time, one file each, as the two
/// daemons' stores do. Both share one device: here the two together got 0.84–1.74× what one got alone
/// (12 runs, BENCHMARKS.md), so a userInfo transfer's fsyncs cost the pair this shared rate, which the
/// `userInfo` section divides by the fsyncs a transfer takes (its fsync ceiling, beside the CPU ceiling).
extension BaselineBench {
    /// Each writer's rate (`count` writes + fdatasyncs each, started together) and the two together.
    func twoWriters() throws(BenchError) {
        context.progress("baseline: write + fdatasync, two writers at once")
        let count = context.counts.fdatasyncs
        let paths = (0..<2).map { "\(context.runDirectory)/fdatasync-\($0).dat" }
        var descriptors: [Int32] = []
        defer {
            for fd in descriptors { close(fd) }
            for path in paths { unlink(path) }
        }
        for path in paths { descriptors.append(try Self.preallocated(path)) }
        let files = descriptors
        // Per writer: its rate, or the errno that stopped it (0: none).
        let outcomes = Mutex<[(rate: Double, error: Int32)]>([(0, 0), (0, 0)])
        let start = Monotonic.now()
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            let began = Monotonic.now()
            let error = Self.overwrite(files[writer], count: count) ?? 0
            let rate = Double(count) / Monotonic.seconds(began, Monotonic.now())
            outcomes.withLock { $0[writer] = (rate, error) }
        }
        let elapsed = Monotonic.seconds(start, Monotonic.now())
        let finished = outcomes.withLock { $0 }
        if let failed = finished.firstIndex(where: { $0.error != 0 }) {
            throw BenchError.system("fdatasync \(paths[failed])", errno: finished[failed].error)
        }
        let rates = finished.map(\.rate)
        let each = (rates[0] + rates[1]) / 2
        let together = Double(2 * count) / elapsed
        context.baselines.fdatasyncTwoWritersTotal = together
        context.report.add(
            "baseline", "baseline.fdatasync.twoWriters.rate", "write 4 KiB + fdatasync, two writers at once: each", each, "/s",
            ratio: context.baselines.fdatasyncRate.map { Ratio(factor: each / $0, baseline: "one writer alone", baselineValue: $0) },
            note: "one file each, like the two daemons' stores; \(ReportTable.grouped(rates[0])) and \(ReportTable.grouped(rates[1]))/s")
        context.report.add(
            "baseline", "baseline.fdatasync.twoWriters.total", "write 4 KiB + fdatasync, two writers at once: together", together, "/s",
            ratio: context.baselines.fdatasyncRate.map { Ratio(factor: together / $0, baseline: "one writer alone", baselineValue: $0) })
    }

    /// A file of ``fdatasyncRegion`` 4 KiB blocks written and fsynced, so that overwriting it changes no metadata.
    static func preallocated(_ path: String) throws(BenchError) -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BenchError.system("open \(path)", errno: errno) }
        let block = [UInt8](repeating: 0x63, count: 4096)
        for index in 0..<fdatasyncRegion where pwrite(fd, block, 4096, off_t(index * 4096)) != 4096 {
            let error = errno
            close(fd)
            throw BenchError.system("pwrite \(path)", errno: error)
        }
        guard Glibc.fsync(fd) == 0 else {
            let error = errno
            close(fd)
            throw BenchError.system("fsync \(path)", errno: error)
        }
        return fd
    }

    /// `count` 4 KiB overwrites of a preallocated file, each followed by fdatasync; the errno of a failure.
    private static func overwrite(_ fd: Int32, count: Int) -> Int32? {
        let block = [UInt8](repeating: 0x64, count: 4096)
        for index in 0..<count {
            guard pwrite(fd, block, 4096, off_t((index % fdatasyncRegion) * 4096)) == 4096, Glibc.fdatasync(fd) == 0 else { return errno }
        }
        return nil
    }
}
