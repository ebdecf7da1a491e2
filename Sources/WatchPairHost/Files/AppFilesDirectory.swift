import Foundation
import WatchPairCore
import WatchPairWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The app's `files/` directory (`<state directory>/files`, docs/Systemd.md): where received files are
/// handed to the app.
///
/// A received file waits in the store's spool until the app takes it; landing it here makes a second
/// name for the same bytes (a hard link: no copy, whatever the size), so the store can then forget its
/// own name without touching the app's. Landing is idempotent: a file already landed under one of its
/// two candidate names (found by inode) is not landed again, so a crash between landing and the store
/// forgetting the file leaves one file here, not two.
public struct AppFilesDirectory: Sendable, Hashable {
    /// The directory.
    public let path: String

    /// The `files/` directory of the app whose state lives in `stateDirectory`.
    public init(stateDirectory: String) {
        path = stateDirectory.hasSuffix("/") ? stateDirectory + "files" : stateDirectory + "/files"
    }

    /// Gives the received file `file` a name here and returns its path: the sender's file name, or, when
    /// another file has that name, `<stem>-<first 8 of the transfer id><.extension>`.
    ///
    /// - Throws: ``AppFilesError`` naming the path and errno when the directory cannot be made or the file
    ///   cannot be linked or copied (a full disk is reported as such).
    public func land(_ file: IncomingFile) throws(AppFilesError) -> String {
        try create()
        var source = stat()
        guard stat(file.spoolPath, &source) == 0 else { throw AppFilesError(errno, "reading the received file", file.spoolPath) }
        let candidates = Self.names(for: file.offer.fileName, transferId: file.offer.transferId).map { path + "/" + $0 }
        for candidate in candidates {
            var existing = stat()
            if lstat(candidate, &existing) == 0 {
                if existing.st_ino == source.st_ino, existing.st_dev == source.st_dev { return candidate }
                continue
            }
            try Self.linkOrCopy(file.spoolPath, to: candidate)
            return candidate
        }
        // Both names are taken by other files: the second names this transfer, so it is replaced.
        let last = candidates[candidates.count - 1]
        let temporary = last + ".landing"
        unlink(temporary)
        try Self.linkOrCopy(file.spoolPath, to: temporary)
        guard rename(temporary, last) == 0 else {
            let code = errno
            unlink(temporary)
            throw AppFilesError(code, "naming the received file", last)
        }
        return last
    }

    /// Removes a landed file (the `WatchConnectivity` session removes it once `didReceive file` returned);
    /// a file the app already moved away is not an error.
    public func remove(_ landed: String) {
        unlink(landed)
    }

    /// The files here, by name, with their sizes and modification times; hidden names are skipped.
    public func list() -> [LandedFile] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().compactMap { name -> LandedFile? in
            guard !name.hasPrefix(".") else { return nil }
            var info = stat()
            let full = path + "/" + name
            guard stat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            return LandedFile(
                name: name, path: full, size: UInt64(info.st_size),
                modifiedAt: Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
        }
    }

    /// The two names a file may land under.
    static func names(for fileName: String, transferId: UUID) -> [String] {
        let url = URL(fileURLWithPath: fileName)
        let ext = url.pathExtension
        let stem = ext.isEmpty ? fileName : String(fileName.dropLast(ext.count + 1))
        let tag = transferId.uuidString.prefix(8).lowercased()
        return [fileName, stem + "-" + tag + (ext.isEmpty ? "" : "." + ext)]
    }

    /// The mode of the directory: the daemon's group (`watchpair` under systemd, the group whose members
    /// use `wcctl`) may list and read it. Set explicitly, since the units' `UMask=0077` would take it away.
    static let directoryMode: mode_t = 0o750
    /// The mode of a landed file: readable by the same group, so the app's user need not be root.
    static let fileMode: mode_t = 0o640

    /// Creates the directory (mode ``directoryMode``) when absent.
    private func create() throws(AppFilesError) {
        if mkdir(path, Self.directoryMode) == 0 {
            guard chmod(path, Self.directoryMode) == 0 else { throw AppFilesError(errno, "setting the mode of the files directory", path) }
            return
        }
        guard errno == EEXIST else { throw AppFilesError(errno, "creating the files directory", path) }
    }

    /// Links `source` as `target` (mode ``fileMode``); copies it when the two are on different file systems.
    private static func linkOrCopy(_ source: String, to target: String) throws(AppFilesError) {
        if link(source, target) != 0 {
            let code = errno
            guard code == EXDEV || code == EPERM else { throw AppFilesError(code, "linking the received file", target) }
            do {
                try FileManager.default.copyItem(atPath: source, toPath: target)
            } catch {
                throw AppFilesError(EIO, "copying the received file (\(error))", target)
            }
        }
        guard chmod(target, fileMode) == 0 else { throw AppFilesError(errno, "setting the mode of the received file", target) }
    }
}
