import Foundation
import Glibc
import Logging
import Testing
import WatchPairCore
@testable import WatchPairTransport

/// The installation record (`wcctl uninstall`) and the socket unit's enablement, read from disk so they
/// hold while the peer app is not running.
@Suite("installation record and unit file state", .timeLimit(.minutes(3)))
struct InstallationRecordTests {
    @Test("a published record is read back by the app and by its peer, and inotify reports it")
    func record() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var watchSide = UnixSocketTransportConfiguration(listener: .none, peerLinkPath: dir("phoned.sock"), peerControlPath: dir("phoned.ctl"))
        watchSide.stateDirectory = dir("watchd")
        var phoneSide = UnixSocketTransportConfiguration(listener: .none, peerLinkPath: dir("watchd.sock"), peerControlPath: dir("watchd.ctl"))
        phoneSide.peerStateDirectory = dir("watchd")
        let watch = UnixSocketTransport(configuration: watchSide, logger: Logger(label: "test"))
        let phone = UnixSocketTransport(configuration: phoneSide, logger: Logger(label: "test"))
        #expect(await phone.peerPresence().installation.installed, "no record: installed")
        let changes = phone.peerChanges()
        try await watch.publishInstallation(AppInstallation(installed: false))
        // The record's directory appears first, then the record: each is a change; wait for the record.
        var iterator = changes.makeAsyncIterator()
        while await phone.peerPresence().installation.installed { _ = await iterator.next() }
        #expect(await phone.peerPresence().installation == AppInstallation(installed: false))
        #expect(await watch.installation() == AppInstallation(installed: false))
        try await watch.publishInstallation(AppInstallation(installed: true))
        #expect(await phone.peerPresence().watchState.installed)
    }

    @Test("a damaged record counts as installed (a stray file never makes the peer refuse content)")
    func damaged() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir("watchd"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir("watchd") + "/app-installation.json", contents: Data("{not json".utf8))
        var configuration = UnixSocketTransportConfiguration(listener: .none, peerLinkPath: dir("watchd.sock"), peerControlPath: dir("watchd.ctl"))
        configuration.peerStateDirectory = dir("watchd")
        let phone = UnixSocketTransport(configuration: configuration, logger: Logger(label: "test"))
        #expect(await phone.peerPresence().installation.installed)
    }

    @Test("unit file state: masked, enabled, disabled, not-found, unknown, as systemctl is-enabled says")
    func unitFileState() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let etc = dir("etc"), lib = dir("lib")
        try FileManager.default.createDirectory(atPath: etc + "/sockets.target.wants", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
        let probe = UnitFileStateProbe(unit: "watchd.socket", ownUnit: "phoned.socket", configurationDirectories: [etc], unitDirectories: [lib])
        #expect(probe.state() == nil, "no unit file on either side: not under systemd's units")
        _ = FileManager.default.createFile(atPath: lib + "/phoned.socket", contents: Data("[Socket]\n".utf8))
        #expect(probe.state() == .notFound, "this side is a unit and the peer has no unit file: not installed")
        _ = FileManager.default.createFile(atPath: lib + "/watchd.socket", contents: Data("[Socket]\n".utf8))
        #expect(probe.state() == .disabled)
        try FileManager.default.createSymbolicLink(atPath: etc + "/sockets.target.wants/watchd.socket", withDestinationPath: lib + "/watchd.socket")
        #expect(probe.state() == .enabled)
        try FileManager.default.createSymbolicLink(atPath: etc + "/watchd.socket", withDestinationPath: "/dev/null")
        #expect(probe.state() == .masked, "masked wins over enabled")
        #expect(probe.watchedPaths == [etc + "/watchd.socket", etc + "/sockets.target.wants/watchd.socket", lib + "/watchd.socket"])
    }

    @Test("a pair's instance (watchd@ci-3.socket) has the template's unit file, and its own links")
    func templateInstanceState() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let etc = dir("etc"), lib = dir("lib")
        try FileManager.default.createDirectory(atPath: etc + "/sockets.target.wants", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
        let probe = UnitFileStateProbe(unit: "watchd@ci-3.socket", ownUnit: "phoned@ci-3.socket", configurationDirectories: [etc], unitDirectories: [lib])
        #expect(probe.state() == nil)
        _ = FileManager.default.createFile(atPath: lib + "/phoned@.socket", contents: Data("[Socket]\n".utf8))
        #expect(probe.state() == .notFound, "only the phone's template is installed")
        _ = FileManager.default.createFile(atPath: lib + "/watchd@.socket", contents: Data("[Socket]\n".utf8))
        #expect(probe.state() == .disabled, "the template's file is the instance's")
        try FileManager.default.createSymbolicLink(atPath: etc + "/sockets.target.wants/watchd@ci-3.socket", withDestinationPath: lib + "/watchd@.socket")
        #expect(probe.state() == .enabled)
        try FileManager.default.createSymbolicLink(atPath: etc + "/watchd@ci-3.socket", withDestinationPath: "/dev/null")
        #expect(probe.state() == .masked)
        #expect(probe.watchedPaths.contains(lib + "/watchd@.socket") && probe.watchedPaths.contains(lib + "/watchd@ci-3.socket"))
    }

    @Test(arguments: [
        ("watchd.socket", ["watchd.socket"]), ("watchd@ci-3.socket", ["watchd@ci-3.socket", "watchd@.socket"]),
        ("phoned@a.service", ["phoned@a.service", "phoned@.service"]), ("odd@", ["odd@"]),
    ])
    func unitFileNames(unit: String, names: [String]) {
        #expect(UnitFileStateProbe.unitFileNames(of: unit) == names)
    }
}
