import Foundation
import Testing
import WatchConnection
import WatchPairCore
import WatchPairTesting
import WatchPairWire

@testable import WatchPairDaemon
@testable import WatchPairHost

/// The daemon's layer: its `layer.*` settings reach the layer (a short queue expiry on a manual clock).
@Suite("The daemon's layer: health, suggestions and its settings", .timeLimit(.minutes(1)))
struct LayerHealthTests {
    @Test("layer.queueExpiry: a queued request expires after 2 s on the daemon's manual clock (7001, requestExpired)")
    func shortExpiry() async throws {
        let directory = try TemporaryDirectory()
        var configuration = testConfiguration(.watch, in: directory.path)
        configuration.layer.queueExpiry = .seconds(2)
        configuration.keepAlive.interval = nil
        let clock = ManualClock()
        let events = EventCollector()
        try await withRunningDaemon(configuration, clock: clock, events: events) { watch in
            try await ControlTestClient.with(watch.configuration.paths.control) { client in
                // The phone is off: the request waits in the queue until it expires.
                try await client.send(["id": 1, "op": "request", "requestType": "T", "body": [:], "strategy": "messageOnly"])
                await events.wait(for: .requestQueued)
                // Its expiry timer; other timers of the daemon end at other instants.
                await clock.waitForSleepers(count: 1, until: ManualClock.Instant.zero.advanced(by: .seconds(2)))
                clock.advance(by: .milliseconds(1_999))
                #expect(!events.all.contains { $0.kind == .requestExpired })
                clock.advance(by: .milliseconds(1))
                let response = try await client.next { $0["id"] == .integer(1) }
                #expect(response["error"]?["code"] == .integer(7001), "\(response)")
                #expect(response["error"]?["message"]?.stringValue?.contains("expired") == true, "\(response)")
            }
            await events.wait(for: .requestExpired)
            let queue = try String(contentsOfFile: "\(watch.configuration.store.directory)/\(RequestQueueFile.fileName)", encoding: .utf8)
            #expect(!queue.contains("\"T\""), "the expired request left the queue file: \(queue)")
        }
    }

    @Test("the layer.* defaults are the layer's own, and each setting reaches WatchConnectionConfiguration")
    func settingsReachTheLayer() {
        let url = URL(fileURLWithPath: "/tmp/layer")
        let defaults = WatchConnectionConfiguration(storageDirectory: url, layer: LayerConfiguration(), limits: PayloadLimits())
        let library = WatchConnectionConfiguration(storageDirectory: url)
        #expect(defaults.queueCapacity == library.queueCapacity && defaults.queueExpiry == library.queueExpiry)
        #expect(defaults.healthThresholds == library.healthThresholds)
        #expect(defaults.suggestionDedupeWindow == library.suggestionDedupeWindow)
        var layer = LayerConfiguration()
        (layer.queueCapacity, layer.queueExpiry, layer.degradedAfter, layer.unhealthyAfter) = (5, .seconds(2), 1, 4)
        layer.suggestionDedupeWindow = .zero
        let set = WatchConnectionConfiguration(storageDirectory: url, layer: layer, limits: PayloadLimits(message: 100))
        #expect(set.queueCapacity == 5 && set.queueExpiry == .seconds(2) && set.suggestionDedupeWindow == .zero)
        #expect(set.healthThresholds == HealthMachine.Thresholds(degradedAfter: 1, unhealthyAfter: 4))
        #expect(set.payloadLimit == 100 && set.storageDirectory == url)
    }
}
