import Dispatch
import Glibc
import Logging

/// Turns inotify events about a few socket paths into a "something changed" signal stream.
///
/// Watches the directory of each path for its name being created, deleted, moved in or out, or having
/// its attributes changed, and the directory itself being deleted or moved. A directory that does not
/// exist (yet) is handled by watching its nearest existing ancestor for the missing component; when
/// that appears, or a watched directory goes away, the watches are re-armed and a signal is sent (the
/// socket may have come or gone with its directory). A queue overflow (`IN_Q_OVERFLOW`) also signals.
///
/// Threading: all state is touched on one serial queue (the read source's), except the first arming,
/// which happens before the source is resumed; hence `@unchecked Sendable`.
final class PeerChangeWatcher: @unchecked Sendable {
    /// The inotify events that matter for a directory holding a watched name.
    private static let directoryMask = UInt32(
        IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR
    )
    /// The inotify events that matter for an ancestor waiting for a missing directory to appear.
    private static let ancestorMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    /// Events on a watch that mean the watched directory itself is gone or the watch was dropped.
    private static let selfGoneMask = UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT)

    /// What one inotify watch descriptor is for.
    private struct Watch {
        var mask: UInt32 = 0
        /// Socket names whose changes are signalled.
        var names: Set<String> = []
        /// Missing directory components whose appearance means "re-arm".
        var components: Set<String> = []
    }

    private let fd: Int32
    private let targets: [(directory: String, name: String)]
    private let continuation: AsyncStream<Void>.Continuation
    private let logger: Logger
    private var watches: [Int32: Watch] = [:]
    /// Set once before the source is resumed, read-only afterwards (`cancel()` is thread-safe).
    private var source: (any DispatchSourceRead)?

    private init(fd: Int32, paths: [String], continuation: AsyncStream<Void>.Continuation, logger: Logger) {
        self.fd = fd
        self.targets = paths.map { Self.split($0) }
        self.continuation = continuation
        self.logger = logger
    }

    /// A stream that yields `()` whenever one of `paths` may have changed; watches are armed on return.
    ///
    /// Bounded to one pending element (`bufferingNewest(1)`): signals coalesce. Terminating the stream
    /// (consumer cancelled) cancels the read source, which closes the inotify descriptor. If inotify
    /// cannot be set up, the failure is logged and the stream never yields (it still finishes on
    /// cancellation), so callers degrade to asking `peerPresence()` when they need to.
    static func changes(of paths: [String], logger: Logger) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            logger.warning(
                "cannot watch the peer's sockets: inotify_init1 failed",
                metadata: ["error": "\(UnixSocketProbe.describe(errno: errno))"]
            )
            // Keep the continuation alive until termination so the stream stays open, silent.
            continuation.onTermination = { _ in _ = continuation }
            return stream
        }
        let watcher = PeerChangeWatcher(fd: fd, paths: paths, continuation: continuation, logger: logger)
        watcher.rearm()
        let source = DispatchSource.makeReadSource(
            fileDescriptor: fd,
            queue: DispatchQueue(label: "WatchPairTransport.PeerChangeWatcher")
        )
        source.setEventHandler { watcher.readEvents() }
        source.setCancelHandler { _ = close(fd) }
        // The source and its handlers keep the watcher alive; cancelling releases both (and closes fd).
        watcher.source = source
        continuation.onTermination = { _ in watcher.source?.cancel() }
        source.resume()
        return stream
    }

    /// Drains the inotify descriptor, then re-arms and signals as the events require.
    private func readEvents() {
        var relevant = false
        var mustRearm = false
        // Room for many events; one needs at most 16 + NAME_MAX + 1 bytes.
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(self.fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN {
                    self.logger.warning("reading inotify events failed", metadata: ["error": "\(UnixSocketProbe.describe(errno: errno))"])
                }
                break
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset + 16 <= count {
                    let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = raw[(offset + 16)..<min(offset + 16 + length, count)]
                    let name = String(decoding: nameBytes.prefix(while: { $0 != 0 }), as: UTF8.self)
                    offset += 16 + length
                    let (isRelevant, needsRearm) = self.classify(wd: wd, mask: mask, name: name)
                    relevant = relevant || isRelevant
                    mustRearm = mustRearm || needsRearm
                }
            }
        }
        if mustRearm { self.rearm() }
        if relevant { self.continuation.yield(()) }
    }

    private func classify(wd: Int32, mask: UInt32, name: String) -> (relevant: Bool, rearm: Bool) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { return (true, true) }
        guard let watch = self.watches[wd] else { return (false, false) }
        if mask & Self.selfGoneMask != 0 { return (true, true) }
        if watch.components.contains(name) { return (true, true) }
        return (watch.names.contains(name), false)
    }

    /// Points the inotify watches at the directories (or their nearest existing ancestors) as they are now.
    private func rearm() {
        for _ in 0..<8 {
            var desired: [String: Watch] = [:]
            for target in self.targets {
                if Self.isDirectory(target.directory) {
                    desired[target.directory, default: Watch()].names.insert(target.name)
                    desired[target.directory, default: Watch()].mask |= Self.directoryMask
                } else {
                    var missing = target.directory
                    var ancestor = Self.split(missing).directory
                    while !Self.isDirectory(ancestor) && ancestor != "/" && ancestor != "." {
                        missing = ancestor
                        ancestor = Self.split(missing).directory
                    }
                    desired[ancestor, default: Watch()].components.insert(Self.split(missing).name)
                    desired[ancestor, default: Watch()].mask |= Self.ancestorMask
                }
            }
            var armed: [Int32: Watch] = [:]
            var raced = false
            for (path, watch) in desired {
                let wd = inotify_add_watch(self.fd, path, watch.mask)
                if wd < 0 {
                    if errno == ENOENT || errno == ENOTDIR {
                        raced = true  // vanished between the check and the watch: look again
                    } else {
                        self.logger.warning(
                            "cannot watch a directory of the peer's sockets",
                            metadata: ["path": "\(path)", "error": "\(UnixSocketProbe.describe(errno: errno))"]
                        )
                    }
                    continue
                }
                // Two paths naming one directory share a descriptor: merge their interests.
                var merged = armed[wd] ?? Watch()
                merged.mask |= watch.mask
                merged.names.formUnion(watch.names)
                merged.components.formUnion(watch.components)
                if merged.mask != watch.mask { _ = inotify_add_watch(self.fd, path, merged.mask) }
                armed[wd] = merged
            }
            for wd in self.watches.keys where armed[wd] == nil {
                _ = inotify_rm_watch(self.fd, wd)
            }
            self.watches = armed
            if !raced { return }
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// `("/run/watchpair", "watchd.sock")` for `"/run/watchpair/watchd.sock"`; `"."` for a bare name.
    private static func split(_ path: String) -> (directory: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
        let directory = trimmed[..<slash]
        return (directory.isEmpty ? "/" : String(directory), String(trimmed[trimmed.index(after: slash)...]))
    }
}
