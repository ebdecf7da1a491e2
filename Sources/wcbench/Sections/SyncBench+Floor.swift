import Foundation
import Glibc

/// The floor of the launch row, measured beside each launch: a fresh `wcbench _sync-floor` process that,
/// from its own start, takes in a snapshot of the same 100 keys durably (read, decode, encode, write,
/// fsync, rename), under the same conditions (the pair and the just-launched watchd still running). What it
/// takes is what no daemon's launch can go below on this machine at that moment.
extension SyncBench {
    /// The floor of launch `index`: its start → its records on disk, in ns on its own clock.
    func launchFloor(_ index: Int) throws(BenchError) -> UInt64 {
        let directory = "\(context.runDirectory)/sync-floor"
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { throw BenchError.system("cannot create \(directory)", errno: errno) }
        let payload = Self.floorSnapshot(index)
        let (parentEnd, childEnd) = try UnixSockets.pair()
        defer { close(parentEnd) }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(
                context.binaries.wcbench, ["_sync-floor", directory], name: "sync floor",
                environment: ChildProcess.environment(), output: "\(directory)/floor.log", keep: [(childEnd, 3)])
        } catch {
            close(childEnd)
            throw error
        }
        close(childEnd)
        defer { _ = child.stop() }
        var length = UInt32(payload.count)
        guard UnixSockets.writeExactly(parentEnd, &length, 4), UnixSockets.writeExactly(parentEnd, payload, payload.count) else {
            throw BenchError("the sync floor process went away (see \(directory)/floor.log)")
        }
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while UnixSockets.readExactly(parentEnd, &byte, 1), byte != UInt8(ascii: "\n") { answer.append(byte) }
        let stamps = String(decoding: answer, as: UTF8.self).split(separator: " ").compactMap { Int64($0) }
        guard stamps.count == 2, stamps[1] >= stamps[0] else {
            throw BenchError("the sync floor process answered '\(String(decoding: answer, as: UTF8.self))' (see \(directory)/floor.log)")
        }
        return UInt64(stamps[1] - stamps[0]) * 1000
    }

    /// The launch's 100 keys as keyed sync sends them (key, revision, the value's JSON).
    static func floorSnapshot(_ index: Int) -> [UInt8] {
        let pad = String(repeating: "x", count: 32)
        let entries = snapshotKeys.enumerated().map { n, key in
            let value = Data(#"{"launch":\#(index),"n":\#(n),"p":"\#(pad)"}"#.utf8).base64EncodedString()
            return #"{"key":"\#(key)","revision":"\#(index + 2)@phone","value":"\#(value)"}"#
        }
        return Array(("[" + entries.joined(separator: ",") + "]").utf8)
    }
}
