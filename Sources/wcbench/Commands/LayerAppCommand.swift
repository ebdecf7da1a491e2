import ArgumentParser
import Foundation
import Glibc

/// `wcbench _layer-app`: one of the two apps of the layer and wcmodule sections, on the
/// WatchConnectivity module (`WCSession.default`, configured by the environment wcbench sets). The
/// responder is the watch app; the driver (layer, ``LayerDriver``) or the pinger (wcmodule,
/// ``MessagePinger``) is the phone app, which measures and reports to wcbench on stdout.
struct LayerAppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_layer-app", abstract: "Internal: an app of the layer section.", shouldDisplay: false)

    /// Which app.
    enum Role: String, ExpressibleByArgument {
        case responder, driver, pinger
    }

    @Option(help: "responder (the watch app), driver or pinger (the phone app of the layer or wcmodule section, which measures).")
    var role: Role

    @Option(help: "Round trips measured, raw and through the layer (driver).")
    var roundTrips = 1_000

    @Option(help: "Round trips before measuring, of each kind (driver).")
    var warmup = 100

    @Option(help: "Requests queued while the responder is off (driver).")
    var queued = 1_000

    @Option(help: "Payload bytes of each request and reply.")
    var payload = 64

    @Flag(help: "Start with the layer's handler at once (a responder restarted for the flush).")
    var layerOnly = false

    @Flag(help: "With --layer-only: keep the layer's records in the app's state directory (the second flush).")
    var storage = false

    func validate() throws {
        guard roundTrips > 0, warmup >= 0, queued > 0, payload >= 0 else {
            throw ValidationError("--round-trips and --queued must be positive, --warmup and --payload not negative")
        }
    }

    func run() throws {
        let settings = LayerDriver.Settings(
            roundTrips: roundTrips, warmup: warmup, queued: queued, pad: String(repeating: "a", count: payload))
        let (role, layerOnly, storage) = (role, layerOnly, storage)
        // The layer is @MainActor, as an app's UI code is: run it on the main queue, which never returns.
        Task { @MainActor in
            switch role {
            case .responder: LayerResponder().start(layerOnly: layerOnly, persisted: storage)
            case .driver: await Self.measure("layer driver") { try await LayerDriver(settings: settings).run() }
            case .pinger: await Self.measure("pinger") { try await MessagePinger.runModuleSection(settings) }
            }
        }
        dispatchMain()
    }

    /// Runs a measuring app to its end and exits: 0, or 1 with the error on stderr (the app's log).
    @MainActor
    private static func measure(_ name: String, _ body: @MainActor () async throws -> Void) async -> Never {
        do {
            try await body()
            Glibc.exit(0)
        } catch {
            FileHandle.standardError.write(Data("\(name) failed: \(error)\n".utf8))
            Glibc.exit(1)
        }
    }
}
