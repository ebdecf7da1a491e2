// swift-tools-version:6.1
// The package of an app's sync code and its tests, as docs/Testing.md shows it (the guide quotes this
// manifest; TestingGuideDocTests reads it with `swift package dump-package` beside a clone named WatchPair).
import PackageDescription

let package = Package(
    name: "ShoppingList",
    platforms: [.macOS(.v15)],
    dependencies: [
        // A clone of WatchPair beside this package; or .package(url: "<its URL>", from: "0.2.0").
        .package(path: "../WatchPair"),
    ],
    targets: [
        // The sync code, written against Apple's API.
        .target(
            name: "ShoppingSync",
            dependencies: [.product(name: "WatchConnectivity", package: "WatchPair")]
        ),
        // Its tests: both apps' sessions in one process.
        .testTarget(
            name: "ShoppingSyncTests",
            dependencies: [
                "ShoppingSync",
                .product(name: "WatchConnectivity", package: "WatchPair"),
                .product(name: "WatchConnectivityTesting", package: "WatchPair"),
            ]
        ),
    ]
)
