// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "WatchPair",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "phoned", targets: ["phoned"]),
        .executable(name: "watchd", targets: ["watchd"]),
        .executable(name: "wcctl", targets: ["wcctl"]),
        .executable(name: "wcbench", targets: ["wcbench"]),
        .library(name: "WatchConnectivity", targets: ["WatchConnectivity"]),
        .library(name: "WatchPairTesting", targets: ["WatchPairTesting"]),
        .library(name: "WatchConnectivityTesting", targets: ["WatchConnectivityTesting"]),
        .library(name: "WatchConnection", targets: ["WatchConnection"]),
        .library(name: "WatchConnectionWCSession", targets: ["WatchConnectionWCSession"]),
        .library(name: "WatchConnectionTesting", targets: ["WatchConnectionTesting"]),
        .library(name: "KeyedSync", targets: ["KeyedSync"]),
        // The daemons' control operations, for the fuzz package (`DaemonOperations.read`); apps do not use it.
        .library(name: "WatchPairDaemon", targets: ["WatchPairDaemon"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
    ],
    targets: [
        // The version and commit of the build (`--version` of every binary), generated before each build.
        .target(name: "WatchPairVersion", plugins: ["BuildInfoPlugin"]),
        .plugin(name: "BuildInfoPlugin", capability: .buildTool()),
        // CRC-32C with the CPU's instruction (SSE4.2 `crc32`), chosen at run time by WatchPairWire.
        .target(name: "CCRC32C"),
        // `sync_file_range(2)`, which Swift's Glibc module does not import: the spool copy's early writeback.
        .target(name: "CFileWriteback"),
        // Pure: frames, handshake, property-list values, WCError codes. No I/O.
        .target(name: "WatchPairWire", dependencies: ["CCRC32C"]),
        // Channel state machines, durable store, link policy, diagnostics. No sockets.
        .target(
            name: "WatchPairCore",
            dependencies: [
                "WatchPairWire",
                "WatchPairQuirks",
                "CFileWriteback",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [
                // Async functions run where their caller runs unless marked `@concurrent`: the engine's
                // calls into the store and its links stay on the engine's loop instead of hopping off it
                // and back as jobs (docs/Design.md, "The hot paths on the loop").
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                // Swift 6.3.1's optimizer crashes on this module in CopyPropagation (the SIL ownership
                // verifier, on the store's inbox reader); without this pass `swift build -c release` works.
                .unsafeFlags(["-Xfrontend", "-enable-copy-propagation=false"], .when(configuration: .release)),
            ]
        ),
        // Unix-domain-socket transport on swift-nio; the only module importing NIOPosix.
        .target(
            name: "WatchPairTransport",
            dependencies: [
                "WatchPairCore",
                "WatchPairWire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // libsystemd: listen fds by name, notify, watchdog, journald log handler.
        .target(
            name: "Systemd",
            dependencies: ["CSystemd", .product(name: "Logging", package: "swift-log")]
        ),
        // Apple-compatible WCSession API on top of WatchPairHost.
        .target(
            name: "WatchConnectivity",
            dependencies: [
                "WatchPairHost", "WatchPairCore", "WatchPairWire", "WatchPairQuirks", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // SplitMix64, the one seeded random algorithm: WatchConnection's SeededRandom and the test kit's
        // TestRandom (package access; no dependencies).
        .target(name: "SplitMix"),
        // The quirks of real devices (docs/Quirks.md): the catalog and the seeded decision, pure; the engine
        // and FlakySession both draw from it.
        .target(name: "WatchPairQuirks", dependencies: ["SplitMix"]),
        // The reliability layer (docs/WatchConnection.md): sees only its WCSessionProviding protocol, so it
        // would also compile over Apple's framework; nothing of WatchPair's internals.
        .target(name: "WatchConnection", dependencies: ["SplitMix", .product(name: "Logging", package: "swift-log")]),
        // WatchConnectivity.WCSession as a WCSessionProviding: the one place that sees both modules.
        .target(name: "WatchConnectionWCSession", dependencies: ["WatchConnection", "WatchConnectivity"]),
        // Test kit of WatchConnection apps: FlakySession (seeded faults, the quirks of real devices, injected clock).
        .target(name: "WatchConnectionTesting", dependencies: ["WatchConnection", "WatchPairQuirks"]),
        // Keyed sync (docs/KeyedSync.md): registered keys, revisions and the launch-order-safe handshake on top
        // of WatchConnection (and nothing below it).
        .target(name: "KeyedSync", dependencies: ["WatchConnection", .product(name: "Logging", package: "swift-log")]),
        // Apple-style sync services on the WatchConnectivity module: one per side.
        // The examples' console: one JSON line per event on stdout, commands from stdin.
        .target(name: "ExampleConsole", path: "Examples/Console"),
        // The shopping list on KeyedSync (docs/KeyedSync.md): keys instead of a hand-written handshake.
        .target(
            name: "ShoppingList", dependencies: ["KeyedSync", "WatchConnectionWCSession", "WatchConnectivity", "ExampleConsole"],
            path: "Examples/ShoppingList"),
        .executableTarget(name: "PhoneSync", dependencies: ["ShoppingList", "ExampleConsole"], path: "Examples/PhoneSync"),
        .executableTarget(name: "WatchSync", dependencies: ["ShoppingList", "ExampleConsole"], path: "Examples/WatchSync"),
        // The same app written by hand, the way Apple's samples do it: what KeyedSync saves.
        .executableTarget(
            name: "PhoneSyncByHand", dependencies: ["WatchConnectivity", "ExampleConsole"], path: "Examples/ByHand/PhoneSync"),
        .executableTarget(
            name: "WatchSyncByHand", dependencies: ["WatchConnectivity", "ExampleConsole"], path: "Examples/ByHand/WatchSync"),
        // A workout log on the WatchConnection layer (docs/ReliableSync.md): the requests both apps share
        // and what they show of the connection, then one executable per side.
        .target(name: "ReliableShared", dependencies: ["WatchConnection", "ExampleConsole"], path: "Examples/ReliableShared"),
        .executableTarget(
            name: "ReliablePhone",
            dependencies: ["ReliableShared", "ExampleConsole", "WatchConnection", "WatchConnectionWCSession", "WatchConnectivity"],
            path: "Examples/ReliablePhone"
        ),
        .executableTarget(
            name: "ReliableWatch",
            dependencies: ["ReliableShared", "ExampleConsole", "WatchConnection", "WatchConnectionWCSession", "WatchConnectivity"],
            path: "Examples/ReliableWatch"
        ),
        // The one host of an app: configuration, store, link listener, launch mode, engine, control
        // socket, and one Service with the shutdown order. The daemons and WCSession build on it.
        .target(
            name: "WatchPairHost",
            dependencies: [
                "WatchPairVersion",
                "WatchPairWire",
                "WatchPairCore",
                "WatchPairQuirks",
                "WatchPairTransport",
                "Systemd",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The daemons' control operations (wcctl's requests) on top of WatchPairHost, and their main.
        .target(
            name: "WatchPairDaemon",
            dependencies: [
                "WatchPairHost",
                "WatchConnection",
                "KeyedSync",
                "WatchPairWire",
                "WatchPairCore",
                "WatchPairQuirks",
                "WatchPairTransport",
                "Systemd",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "phoned", dependencies: ["WatchPairDaemon"]),
        .executableTarget(name: "watchd", dependencies: ["WatchPairDaemon"]),
        // Events of both apps merged, selected and drawn as a sequence diagram (pure; wcctl's
        // `events` and `timeline`).
        .target(name: "WatchPairTimeline", dependencies: ["WatchPairWire"]),
        // The control-socket client of wcctl, wcbench and the tests: connect, line framing, response
        // matching; a blocking, poll-driven connection and an async face on a thread of its own (no NIO).
        .target(name: "WatchPairControlClient", dependencies: ["WatchPairWire"]),
        // wcctl's commands, its face of the control client and output (testable; the executable only calls it).
        .target(
            name: "WatchPairCLI",
            dependencies: [
                "WatchPairVersion",
                "WatchConnection",
                "WatchPairWire",
                "WatchPairControlClient",
                "WatchPairTimeline",
                "WatchPairQuirks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "wcctl", dependencies: ["WatchPairCLI"]),
        // Benchmarks: the real daemons next to this machine's own limits (BENCHMARKS.md).
        .executableTarget(
            name: "wcbench",
            dependencies: [
                "WatchPairVersion",
                "WatchPairWire",
                "WatchPairControlClient",
                "WatchPairCLI",
                "CFileWriteback",
                // The layer section's two apps (`wcbench _layer-app`) are WatchConnectivity apps.
                "WatchConnectivity", "WatchConnection", "WatchConnectionWCSession",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                // The relay floor's NIO relays (`_relay --loop nio`): what the daemons are built on.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Test kit: in-memory transport pair, manual clock, fault-injecting transport, a wait's time limit,
        // awaited teardown, seeded random.
        .target(name: "WatchPairTesting", dependencies: ["WatchPairCore", "WatchPairWire", "SplitMix"]),
        // Test kit of WCSession apps: both apps' sessions in one process, in memory or over sockets.
        .target(
            name: "WatchConnectivityTesting",
            dependencies: [
                "WatchConnectivity", "WatchPairTesting", "WatchPairCore", "WatchPairWire", "WatchPairQuirks",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "WatchConnectivityTestingTests",
            dependencies: [
                "WatchConnectivityTesting", "WatchConnectivity", "WatchPairTesting", "WatchPairWire",
                .product(name: "Logging", package: "swift-log"), .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "WatchPairWireTests", dependencies: ["WatchPairWire", "WatchPairTesting"]),
        .testTarget(name: "WatchPairQuirksTests", dependencies: ["WatchPairQuirks"]),
        .testTarget(
            name: "WatchConnectionTests",
            dependencies: [
                "WatchConnection", "WatchConnectionTesting", "WatchConnectionWCSession", "WatchConnectivity",
                "WatchConnectivityTesting", "WatchPairTesting", .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        // An app written in WatchConnectivitySwift's documented style: must keep compiling and passing.
        .testTarget(
            name: "KeyedSyncTests",
            dependencies: [
                "KeyedSync", "WatchConnection", "WatchConnectionTesting", "WatchPairTesting",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "WatchConnectionStyleTests", dependencies: ["WatchConnection", "WatchConnectionTesting"]),
        // A file path written in WatchConnectivitySwift's and LocalData's style against `import WatchConnectivity`.
        .testTarget(name: "WatchConnectivityStyleTests", dependencies: ["WatchConnectivity", "WatchConnectivityTesting"]),
        .testTarget(
            name: "WatchPairCoreTests",
            dependencies: [
                "WatchPairCore", "WatchPairTesting", "WatchPairTransport", "WatchPairQuirks",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(name: "WatchPairTransportTests", dependencies: ["WatchPairTransport", "WatchPairTesting", "WatchPairWire"]),
        .testTarget(name: "SystemdTests", dependencies: ["Systemd", "WatchPairWire"]),
        .testTarget(
            name: "WatchConnectivityTests",
            dependencies: [
                "WatchConnectivity", "WatchConnectivityTesting", "WatchPairCore", "WatchPairWire", "WatchPairTransport",
                "WatchPairHost", "WatchPairTesting", "WatchPairControlClient", "WatchPairQuirks",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The real phoned, watchd and wcctl as processes (found next to the test bundle).
        .testTarget(
            name: "ProcessTests",
            dependencies: ["WatchPairWire", "WatchPairCore", "WatchPairTesting", "WatchPairControlClient"]
        ),
        .testTarget(name: "WcctlTests", dependencies: ["WatchPairCLI", "WatchPairControlClient", "WatchPairWire", "WatchPairQuirks"]),
        .testTarget(name: "WatchPairControlClientTests", dependencies: ["WatchPairControlClient", "WatchPairWire"]),
        .testTarget(name: "TimelineTests", dependencies: ["WatchPairTimeline", "WatchPairWire"]),
        .testTarget(
            name: "WatchPairDaemonTests",
            dependencies: [
                "WatchPairDaemon", "WatchPairHost", "WatchPairTesting", "WatchPairCore", "WatchPairWire", "Systemd",
                "WatchConnection", "WatchPairControlClient", "WatchPairQuirks",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
