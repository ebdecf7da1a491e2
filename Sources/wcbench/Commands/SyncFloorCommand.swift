import ArgumentParser
import Foundation
import Glibc
import WatchPairWire

/// `wcbench _sync-floor DIR`: the floor of the sync section's launch row. A fresh process that, from its
/// own start ("up"), does only what a launched watch must do with the phone's snapshot: reads it from
/// descriptor 3 (a 4-byte length, then JSON), decodes it, encodes its records and writes them durably in
/// `DIR` (a temporary file, fsync, rename, the directory's fsync); then answers "UP DONE\n" (µs since 1970).
struct SyncFloorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_sync-floor", abstract: "Internal: a fresh process taking in one sync snapshot durably.", shouldDisplay: false)

    @Argument(help: "Where the records are written.")
    var directory: String

    /// One key of the snapshot, as keyed sync sends it.
    struct Entry: Codable {
        var key: String
        var revision: String
        var value: Data
    }

    func run() throws {
        let up = EventTimestamp.microseconds(Date())
        var length: UInt32 = 0
        guard UnixSockets.readExactly(3, &length, 4) else { throw ExitCode(1) }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        guard bytes.withUnsafeMutableBytes({ UnixSockets.readExactly(3, $0.baseAddress!, $0.count) }) else { throw ExitCode(1) }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(bytes))
        let records = Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        try Self.writeDurably(try JSONEncoder().encode(records), to: "\(directory)/floor.json")
        let answer = Array("\(up) \(EventTimestamp.microseconds(Date()))\n".utf8)
        guard UnixSockets.writeExactly(3, answer, answer.count) else { throw ExitCode(1) }
    }

    /// `data` in `path`, replaced atomically and on disk (the file and the directory fsynced).
    static func writeDurably(_ data: Data, to path: String) throws {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ExitCode(1) }
        let written = data.withUnsafeBytes { UnixSockets.writeExactly(fd, $0.baseAddress!, $0.count) }
        guard written, fsync(fd) == 0, close(fd) == 0, rename(temporary, path) == 0 else { throw ExitCode(1) }
        let folder = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0, fsync(folder) == 0 else { throw ExitCode(1) }
        close(folder)
    }
}
