// swift-tools-version:5.4
import PackageDescription

// libFuzzer targets for WatchPair's decoders (docs/Fuzzing.md): one executable per decoder, each with
// `LLVMFuzzerTestOneInput` and no `main` (libFuzzer's is linked in). A package of its own, so `swift build`
// of the root never builds it; `scripts/fuzz.sh` builds it with `-sanitize=fuzzer,address -parse-as-library`.
//
// Tools version 5.4 on purpose: from 5.5 on, SwiftPM links an executable with `--defsym main=<module>_main`
// (so tests can link executables), and a fuzz target has no such symbol. No `platforms`: libFuzzer ships
// with the swift.org toolchains for Linux, and 5.4's manifest API has no macOS 15.
//
// The decoders' modules are not products of WatchPair; they come with the products that contain them
// (`WatchPairTesting` holds WatchPairWire, `WatchConnectivity` holds WatchPairHost).
let package = Package(
    name: "WatchPairFuzz",
    dependencies: [
        .package(name: "WatchPair", path: ".."),
    ],
    targets: [
        // The checks every target shares: a failed property is a crash with the input saved.
        .target(name: "FuzzSupport", dependencies: [.product(name: "WatchPairTesting", package: "WatchPair")]),
        .executableTarget(name: "fuzz-frame-stream", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-frame-body", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-plist", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-plist-json", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-date", dependencies: ["FuzzSupport"]),
        .executableTarget(
            name: "fuzz-control-request",
            dependencies: ["FuzzSupport", .product(name: "WatchPairDaemon", package: "WatchPair")]
        ),
    ]
)
