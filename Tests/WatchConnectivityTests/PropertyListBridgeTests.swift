import Foundation
import Testing
import WatchPairWire

@testable import WatchConnectivity

@Suite("[String: Any] payloads")
struct PropertyListBridgeTests {
    static let date = Date(timeIntervalSinceReferenceDate: 700_000_000.25)

    /// Every accepted Swift and Foundation form, and the value it becomes.
    nonisolated(unsafe) static let accepted: [(String, Any, PlistValue)] = [
        ("String", "héllo", .string("héllo")),
        ("NSString", NSString(string: "ns"), .string("ns")),
        ("Int", 42, .integer(42)),
        ("Int8", Int8(-8), .integer(-8)),
        ("Int16", Int16(16), .integer(16)),
        ("Int32", Int32(-32), .integer(-32)),
        ("Int64", Int64.min, .integer(.min)),
        ("UInt", UInt(7), .integer(7)),
        ("UInt8", UInt8(1), .integer(1)),
        ("UInt16", UInt16(16), .integer(16)),
        ("UInt32", UInt32.max, .integer(Int64(UInt32.max))),
        ("UInt64", UInt64(Int64.max), .integer(.max)),
        ("Double", 2.5, .double(2.5)),
        ("Float", Float(1.5), .double(1.5)),
        ("Bool true", true, .bool(true)),
        ("Bool false", false, .bool(false)),
        ("NSNumber int", NSNumber(value: 3), .integer(3)),
        ("NSNumber one", NSNumber(value: 1), .integer(1)),
        ("NSNumber Int8 one", NSNumber(value: Int8(1)), .integer(1)),
        ("NSNumber double", NSNumber(value: 0.5), .double(0.5)),
        ("NSNumber bool", NSNumber(value: true), .bool(true)),
        ("NSNumber UInt64", NSNumber(value: UInt64(5)), .integer(5)),
        ("Date", date, .date(date)),
        ("NSDate", NSDate(timeIntervalSinceReferenceDate: 1), .date(Date(timeIntervalSinceReferenceDate: 1))),
        ("Data", Data([1, 2, 3]), .data(Data([1, 2, 3]))),
        ("NSData", NSData(data: Data([9])), .data(Data([9]))),
        ("[Any]", [1, "a", true] as [Any], .array([.integer(1), .string("a"), .bool(true)])),
        ("[String]", ["x", "y"], .array([.string("x"), .string("y")])),
        ("NSArray", NSArray(array: [NSNumber(value: 2), NSString(string: "b")]), .array([.integer(2), .string("b")])),
        ("[String: Any]", ["k": 1] as [String: Any], .dictionary(["k": .integer(1)])),
        ("NSDictionary", NSDictionary(dictionary: ["k": NSString(string: "v")]), .dictionary(["k": .string("v")])),
        ("empty array", [Any](), .array([])),
        ("empty dictionary", [String: Any](), .dictionary([:])),
    ]

    @Test("every property-list type is accepted", arguments: 0..<accepted.count)
    func acceptsPropertyListType(_ index: Int) throws {
        let (name, value, expected) = Self.accepted[index]
        let converted = try PropertyListBridge.plist(from: ["value": value])
        #expect(converted == ["value": expected], "\(name)")
    }

    @Test("nested containers of every type are accepted")
    func acceptsNested() throws {
        let payload: [String: Any] = [
            "list": [["name": "milk", "done": false, "qty": 2, "at": Self.date] as [String: Any], [Data([0]), 1.25] as [Any]],
            "deep": ["a": ["b": ["c": [NSNumber(value: true)]]]],
        ]
        let converted = try PropertyListBridge.plist(from: payload)
        #expect(
            converted == [
                "list": .array([
                    .dictionary(["name": .string("milk"), "done": .bool(false), "qty": .integer(2), "at": .date(Self.date)]),
                    .array([.data(Data([0])), .double(1.25)]),
                ]),
                "deep": .dictionary(["a": .dictionary(["b": .dictionary(["c": .array([.bool(true)])])])]),
            ])
    }

    struct Custom {}

    /// Values that are not property lists, and the key path the error must name.
    nonisolated(unsafe) static let refused: [(String, [String: Any], String)] = [
        ("NSNull", ["n": NSNull()], "'n'"),
        ("URL", ["u": URL(fileURLWithPath: "/tmp")], "'u'"),
        ("custom struct", ["c": Custom()], "'c'"),
        ("non-string keys", ["d": [1: "x"]], "'d'"),
        ("NSDictionary with number keys", ["d": NSDictionary(dictionary: [NSNumber(value: 1): "x"])], "'d'"),
        ("UInt64 beyond Int64", ["big": UInt64.max], "'big'"),
        ("NSNumber beyond Int64", ["big": NSNumber(value: UInt64.max)], "'big'"),
        ("nil optional", ["o": Optional<Int>.none as Any], "'o'"),
        ("nested in array", ["list": [1, NSNull()] as [Any]], "'list[1]'"),
        ("nested in dictionary", ["outer": ["inner": Custom()]], "'outer.inner'"),
        ("set", ["s": Set([1, 2])], "'s'"),
    ]

    @Test("non-property-list values are refused with 7010", arguments: 0..<refused.count)
    func refusesNonPropertyList(_ index: Int) {
        let (name, payload, path) = Self.refused[index]
        do {
            _ = try PropertyListBridge.plist(from: payload)
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error.code == .payloadUnsupportedTypes, "\(name)")
            #expect((error as NSError).code == 7010)
            #expect(error.localizedDescription.contains(path), "\(name): \(error.localizedDescription)")
        }
    }

    @Test("nesting deeper than the codec allows is refused with 7010")
    func refusesTooDeep() {
        var value: Any = 1
        for _ in 0..<(PlistCodec.maxNestingDepth + 1) { value = [value] }
        let error = #expect(throws: WCError.self) { _ = try PropertyListBridge.plist(from: ["v": value]) }
        #expect(error?.code == .payloadUnsupportedTypes)
    }

    @Test("received values read as on Apple's platforms")
    func incomingValues() throws {
        let received = PropertyListBridge.object(from: [
            "n": .integer(3), "d": .double(2.5), "b": .bool(true), "s": .string("x"), "t": .date(Self.date),
            "data": .data(Data([1])), "list": .array([.integer(1), .integer(2)]), "dict": .dictionary(["k": .string("v")]),
        ])
        #expect(received["n"] as? Int == 3)
        #expect(received["n"] as? Double == 3)
        #expect(received["d"] as? Double == 2.5)
        #expect(received["b"] as? Bool == true)
        #expect(received["s"] as? String == "x")
        #expect(received["t"] as? Date == Self.date)
        #expect(received["data"] as? Data == Data([1]))
        #expect(received["list"] as? [Int] == [1, 2])
        #expect(received["dict"] as? [String: String] == ["k": "v"])
        // What arrives can be sent on unchanged, with the same types (booleans stay booleans).
        let roundTrip = try PropertyListBridge.plist(from: received)
        #expect(roundTrip["b"] == .bool(true))
        #expect(roundTrip["n"] == .integer(3))
        #expect(roundTrip["d"] == .double(2.5))
    }
}
