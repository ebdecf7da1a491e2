import Foundation
import Logging
import Testing
@testable import WatchPairCore
import WatchPairWire

/// Helpers shared by the store tests: temporary directories, opening stores, sample payloads.
enum StoreTestSupport {
    static let logger = Logger(label: "watchpair.store.tests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs `body` with a fresh temporary directory, removed afterwards.
    static func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
        let base = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        var template = Array((base + "wp-store-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        let directory = try #require(made.map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try await body(directory)
    }

    /// Opens a store in a fresh temporary directory, runs `body`, then closes it and removes the directory.
    static func withStore<T>(
        durability: Durability = .process, outboxLimit: Int = 10_000, inboxLimit: Int = 10_000,
        _ body: (PairStore, StoreConfiguration) async throws -> T
    ) async throws -> T {
        try await withTemporaryDirectory { directory throws in
            let configuration = StoreConfiguration(
                directory: directory, durability: durability, outboxLimit: outboxLimit, inboxLimit: inboxLimit)
            let store = try await PairStore.open(configuration, logger: logger)
            do {
                let result = try await body(store, configuration)
                try await store.close()
                return result
            } catch {
                try? await store.close()
                throw error
            }
        }
    }

    /// Opens `configuration`, runs `body`, closes.
    static func reopen<T>(_ configuration: StoreConfiguration, _ body: (PairStore) async throws -> T) async throws -> T {
        let store = try await PairStore.open(configuration, logger: logger)
        do {
            let result = try await body(store)
            try await store.close()
            return result
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// A small payload carrying `index`.
    static func payload(_ index: Int) -> PlistDictionary {
        ["index": .integer(Int64(index)), "name": .string("item \(index)")]
    }

    /// A payload with every property-list type.
    static let richPayload: PlistDictionary = [
        "string": .string("héllo ✓"),
        "integer": .integer(-42),
        "double": .double(3.25),
        "bool": .bool(true),
        "date": .date(Date(timeIntervalSinceReferenceDate: 123_456.789)),
        "data": .data(Data([0, 1, 2, 255])),
        "array": .array([.integer(1), .string("two"), .array([])]),
        "dictionary": .dictionary(["nested": .bool(false), "empty": .dictionary([:])]),
    ]

    /// Received-transfer tuples for seqs in `seqs`.
    static func incoming(_ seqs: some Sequence<UInt64>) -> [(seq: UInt64, transferId: UUID, payload: PlistDictionary)] {
        seqs.map { (seq: $0, transferId: UUID(), payload: payload(Int($0))) }
    }

    /// Expects `body` to throw a `StoreError` and returns it.
    static func expectStoreError(
        _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> StoreError? {
        do {
            try await body()
            Issue.record("expected a StoreError", sourceLocation: sourceLocation)
            return nil
        } catch let error as StoreError {
            return error
        } catch {
            Issue.record("expected a StoreError, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}
