import Foundation
import Glibc
import WatchPairCore

/// The file holding an app's ``AppInstallation`` in its state directory (`app-installation.json`), which
/// the peer reads while the app is not running. Written atomically and durably (a temporary file,
/// fsync, rename, fsync of the directory), so a crash leaves the old record or the new one, never half.
enum InstallationRecordFile {
    /// The record's name in a state directory.
    static let fileName = "app-installation.json"

    /// The record at `path`: installed when absent; an unreadable or damaged record also counts as
    /// installed, so a stray file never makes the peer refuse content (the failure is returned to log).
    static func read(_ path: String) -> (AppInstallation, problem: String?) {
        guard let data = FileManager.default.contents(atPath: path) else { return (AppInstallation(), nil) }
        do {
            return (try JSONDecoder().decode(AppInstallation.self, from: data), nil)
        } catch {
            return (AppInstallation(), "\(path) is not an installation record: \(error)")
        }
    }

    /// Writes `record` to `path`, creating its directory (mode 0700) when missing.
    static func write(_ record: AppInstallation, to path: String) throws(TransportError) {
        let directory = (path as NSString).deletingLastPathComponent
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw failure("mkdir \(directory)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(record))
        } catch {
            throw TransportError(.recordFailed, "encoding the installation record: \(error)")
        }
        bytes.append(UInt8(ascii: "\n"))
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("open \(temporary)") }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else {
            let error = failure("write \(temporary)")
            close(fd)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else { throw failure("rename \(temporary) to \(path)") }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    private static func failure(_ attempted: String) -> TransportError {
        TransportError(.recordFailed, "\(attempted): \(UnixSocketProbe.describe(errno: errno))")
    }
}
