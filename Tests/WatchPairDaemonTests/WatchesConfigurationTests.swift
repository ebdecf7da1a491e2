import Configuration
import Foundation
import Testing
import WatchPairCore
import WatchPairWire

@testable import WatchPairHost

/// docs/Configuration.md `watches` and docs/Watches.md: a phone's watches, their paths and its record.
@Suite("a phone's watches: configuration, paths, record")
struct WatchesConfigurationTests {
    func reader(_ environment: [String: String]) -> ConfigReader {
        ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
    }

    @Test("watches is a list of names; none configured keeps one watch")
    func reads() throws {
        #expect(try HostConfiguration(role: .phone, config: reader([:])).watches == [])
        let phone = try HostConfiguration(role: .phone, config: reader(["WATCHES": "left,right-2"]))
        #expect(phone.watches.map(\.rawValue) == ["left", "right-2"])
    }

    @Test("a bad list names the key: a bad name, a name twice, watches on the watch", arguments: [
        (Role.phone, "a,a", "\"a\" is listed twice"),
        (.phone, "a,b/c", "may hold only ASCII letters"),
        (.watch, "a", "only the phone lists its watches"),
    ])
    func refuses(role: Role, value: String, reason: String) {
        let error = #expect(throws: ConfigurationError.self) { try HostConfiguration(role: role, config: reader(["WATCHES": value])) }
        #expect(error?.key == "watches")
        #expect(error?.reason.contains(reason) == true)
    }

    @Test("bound to a watch, the phone's sockets are the named pair's, its state is in its own; its control socket stays")
    func watchPaths() throws {
        let watch = try PairName(validating: "left")
        let bound = HostConfiguration(role: .phone).forWatch(watch)
        let pair = HostConfiguration(role: .phone, pair: watch)
        #expect(bound.paths.link == pair.paths.link)
        #expect(bound.paths.peerLink == pair.paths.peerLink)
        #expect(bound.paths.peerControl == pair.paths.peerControl)
        #expect(bound.paths.state == HostConfiguration(role: .phone).paths.state + "/watches/left")
        #expect(bound.paths.peerState == pair.paths.peerState)
        #expect(bound.pairId == "left")
        #expect(bound.paths.control == HostConfiguration(role: .phone).paths.control)
        #expect(bound.transport.contentMarkerPath == pair.transport.contentMarkerPath)
    }

    @Test("the record keeps the active watch and the unpaired ones; a missing or broken one is the default")
    func record() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("watches-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/" + WatchSetRecord.fileName
        let names = try ["a", "b", "c"].map { try PairName(validating: $0) }
        #expect(WatchSetRecord.load(path: path).machine(watches: names).active == "a")
        var machine = WatchSetRecord.load(path: path).machine(watches: names)
        _ = try machine.event(.unpair("a"))
        _ = try machine.event(.switchTo("c"))
        try WatchSetRecord(machine).save(path: path)
        let loaded = WatchSetRecord.load(path: path).machine(watches: names)
        #expect(loaded.active == "c")
        #expect(loaded.watches.map(\.paired) == [false, true, true])
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(WatchSetRecord.load(path: path).machine(watches: names).active == "a")
    }
}
