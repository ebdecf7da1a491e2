import Foundation
import WatchConnection
import WatchPairCore
import WatchPairHost

extension WatchConnectionConfiguration {
    /// A daemon's layer: its files in `storageDirectory`, the `layer.*` keys' settings, and the payload
    /// limit of the daemon's channels.
    init(storageDirectory: URL, layer: LayerConfiguration, limits: PayloadLimits) {
        self.init(
            storageDirectory: storageDirectory, queueCapacity: layer.queueCapacity, queueExpiry: layer.queueExpiry,
            healthThresholds: HealthMachine.Thresholds(degradedAfter: layer.degradedAfter, unhealthyAfter: layer.unhealthyAfter),
            suggestionDedupeWindow: layer.suggestionDedupeWindow)
        // A request goes as a message or by userInfo: refused (7009) before anything is sent when over
        // the smaller of the daemon's two limits.
        payloadLimit = min(limits.message, limits.userInfo)
    }
}
