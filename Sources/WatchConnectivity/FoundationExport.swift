// Apple's WatchConnectivity module re-exports Foundation: code written for it uses `NSObject`, `URL`,
// `Data` and `Date` with `import WatchConnectivity` alone (KaneCheshire/Communicator does), so ours does too.
@_exported import Foundation
