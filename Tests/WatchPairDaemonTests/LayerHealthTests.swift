import Foundation
import Testing
import WatchConnection
import WatchPairControlClient
import WatchPairCore
import WatchPairTesting
import WatchPairWire

@testable import WatchPairDaemon
@testable import WatchPairHost

/// The daemon's layer: every failed request counts in its health and suggestions, also one that fails
/// before any attempt (`wcctl request --mode immediate` to a stopped phone), and its `layer.*` settings
/// reach the layer (a short queue expiry on a manual clock).
@Suite("The daemon's layer: health, suggestions and its settings", .timeLimit(.minutes(3)))
struct LayerHealthTests {
    @Test("immediate requests to a phone that is off (nothing listens): 7007 each, degraded after 3, checkBluetoothEnabled")
    func phoneOff() async throws {
        let directory = try TemporaryDirectory()
        let events = EventCollector()
        // Only the watch runs: nothing listens on the phone's link socket, as when the phone is off.
        try await withRunningDaemon(testConfiguration(.watch, in: directory.path), events: events) { watch in
            let layer = try #require(watch.faceService as? AppConnection)
            // The layer has seen the engine activated (else the first request fails 7004, not 7007).
            try await layer.connection().waitForActivation(timeout: .seconds(30))
            try await AsyncControlClientConnection.withConnection(to: watch.configuration.paths.control) { client in
                for id in 1...4 {
                    let response = try await client.call([
                        "id": .integer(Int64(id)), "op": "request", "requestType": "T", "body": [:], "mode": "immediate", "retry": "none",
                    ])
                    #expect(response["error"]?["code"] == .integer(7007), "\(response)")
                }
                let health = try await client.call(["id": 5, "op": "health"])
                #expect(health["result"]?["health"] == .string("degraded"), "\(health)")
            }
            await events.wait(for: .recoverySuggested)
            let suggested = events.all.filter { $0.kind == .recoverySuggested }.map(\.message)
            #expect(suggested == ["suggested: \(RecoverySuggestion.checkBluetoothEnabled.title)"])
        }
    }

    @Test("layer.queueExpiry: a queued request expires after 2 s on the daemon's manual clock (7001, requestExpired)")
    func shortExpiry() async throws {
        let directory = try TemporaryDirectory()
        var configuration = testConfiguration(.watch, in: directory.path)
        configuration.layer.queueExpiry = .seconds(2)
        configuration.keepAlive.interval = nil
        let clock = ManualClock()
        let events = EventCollector()
        try await withRunningDaemon(configuration, clock: clock, events: events) { watch in
            try await AsyncControlClientConnection.withConnection(to: watch.configuration.paths.control) { client in
                // The phone is off: the request waits in the queue until it expires.
                try await client.send(["id": 1, "op": "request", "requestType": "T", "body": [:], "strategy": "messageOnly"])
                await events.wait(for: .requestQueued)
                // Its expiry timer; other timers of the daemon end at other instants.
                await clock.waitForSleepers(count: 1, until: ManualClock.Instant.zero.advanced(by: .seconds(2)))
                clock.advance(by: .milliseconds(1_999))
                #expect(!events.all.contains { $0.kind == .requestExpired })
                clock.advance(by: .milliseconds(1))
                let response = try await client.response(to: 1).json
                #expect(response["error"]?["code"] == .integer(7001), "\(response)")
                #expect(response["error"]?["message"]?.stringValue?.contains("expired") == true, "\(response)")
            }
            await events.wait(for: .requestExpired)
            let queue = RequestQueueFile(directory: URL(fileURLWithPath: watch.configuration.store.directory)).load(setAsideSuffix: "x")
            #expect(queue.setAside == nil && queue.requests.isEmpty, "the expired request left the queue file: \(queue.requests)")
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
