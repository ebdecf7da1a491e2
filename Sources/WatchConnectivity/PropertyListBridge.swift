import Foundation
import WatchPairWire

/// Converts between Apple's `[String: Any]` payloads and the engine's typed property-list values.
///
/// Outgoing (`[String: Any]` → `PlistDictionary`) accepts exactly the property-list types, as Swift or
/// Foundation values: `String`/`NSString`, every fixed-width integer (`UInt`/`UInt64` up to `Int64.max`),
/// `Double`/`Float`, `Bool`, `Date`/`NSDate`, `Data`/`NSData`, arrays (`[Any]`/`NSArray`) and dictionaries with
/// string keys (`[String: Any]`/`NSDictionary`), nested up to `PlistCodec.maxNestingDepth` levels, and
/// `NSNumber` (a boolean `NSNumber` stays a boolean). Anything else — `NSNull`, optionals holding nil,
/// URLs, custom types, non-string keys, integers beyond `Int64` — is refused with 7010
/// (`payloadUnsupportedTypes`), naming the key path of the first offending value.
///
/// Incoming values are handed to the app as Foundation hands them out on Apple's platforms: numbers and
/// booleans as `NSNumber` (so `as? Int`, `as? Double` and `as? Bool` all work), strings as `String`,
/// `Date`, `Data`, `[Any]` and `[String: Any]`.
package enum PropertyListBridge {
    /// Converts an app's dictionary, or throws 7010 naming the first value that is not a property list.
    package static func plist(from dictionary: [String: Any]) throws(WCError) -> PlistDictionary {
        var result: PlistDictionary = [:]
        result.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            result[key] = try plist(from: value, path: key, depth: 1)
        }
        return result
    }

    /// Converts one value found at `path` (for the error message).
    static func plist(from value: Any, path: String, depth: Int) throws(WCError) -> PlistValue {
        guard depth <= PlistCodec.maxNestingDepth else {
            throw unsupported(path, "is nested deeper than \(PlistCodec.maxNestingDepth) levels")
        }
        // NSNumber first: on Linux a Swift `Int` also casts to `Bool` through NSNumber bridging, so the
        // dynamic type decides, never a conditional cast.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            return try plist(from: number, path: path)
        }
        switch value {
        case let string as String: return .string(string)
        case let bool as Bool where type(of: value) == Bool.self: return .bool(bool)
        case let double as Double where type(of: value) == Double.self: return .double(double)
        case let float as Float where type(of: value) == Float.self: return .double(Double(float))
        case let date as Date: return .date(date)
        case let data as Data: return .data(data)
        default: break
        }
        if let integer = integerValue(value) {
            guard let exact = integer else { throw unsupported(path, "is an integer larger than Int64.max") }
            return .integer(exact)
        }
        if let dictionary = value as? [String: Any] {
            var result: PlistDictionary = [:]
            result.reserveCapacity(dictionary.count)
            for (key, element) in dictionary {
                result[key] = try plist(from: element, path: path + "." + key, depth: depth + 1)
            }
            return .dictionary(result)
        }
        if type(of: value) is NSDictionary.Type {
            throw unsupported(path, "is a dictionary whose keys are not all strings")
        }
        if let array = value as? [Any] {
            var result: [PlistValue] = []
            result.reserveCapacity(array.count)
            for (index, element) in array.enumerated() {
                result.append(try plist(from: element, path: "\(path)[\(index)]", depth: depth + 1))
            }
            return .array(result)
        }
        throw unsupported(path, "is a \(type(of: value)), which is not a property-list type")
    }

    /// An `NSNumber`: boolean, floating point or integer, from its Objective-C type encoding.
    static func plist(from number: NSNumber, path: String) throws(WCError) -> PlistValue {
        if isBoolean(number) { return .bool(number.boolValue) }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            return .double(number.doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"):
            guard number.uint64Value <= UInt64(Int64.max) else {
                throw unsupported(path, "is an integer larger than Int64.max")
            }
            return .integer(Int64(number.uint64Value))
        default:
            return .integer(number.int64Value)
        }
    }

    /// Whether an `NSNumber` is a boolean (`CFBoolean`), as opposed to a number that happens to be 0 or 1.
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c" && String(describing: type(of: number)).contains("Boolean")
    }

    /// `.some(value)` for a Swift integer that fits `Int64`, `.some(nil)` for one that does not, nil otherwise.
    static func integerValue(_ value: Any) -> Int64?? {
        switch value {
        case let v as Int where type(of: value) == Int.self: return .some(Int64(v))
        case let v as Int8 where type(of: value) == Int8.self: return .some(Int64(v))
        case let v as Int16 where type(of: value) == Int16.self: return .some(Int64(v))
        case let v as Int32 where type(of: value) == Int32.self: return .some(Int64(v))
        case let v as Int64 where type(of: value) == Int64.self: return .some(v)
        case let v as UInt where type(of: value) == UInt.self: return .some(Int64(exactly: v))
        case let v as UInt8 where type(of: value) == UInt8.self: return .some(Int64(v))
        case let v as UInt16 where type(of: value) == UInt16.self: return .some(Int64(v))
        case let v as UInt32 where type(of: value) == UInt32.self: return .some(Int64(v))
        case let v as UInt64 where type(of: value) == UInt64.self: return .some(Int64(exactly: v))
        default: return nil
        }
    }

    static func unsupported(_ path: String, _ what: String) -> WCError {
        WCError(.payloadUnsupportedTypes, message: "The value at '\(path)' \(what).")
    }

    // MARK: Incoming

    /// The app's view of a received dictionary.
    package static func object(from dictionary: PlistDictionary) -> [String: Any] {
        var result: [String: Any] = [:]
        result.reserveCapacity(dictionary.count)
        for (key, value) in dictionary { result[key] = object(from: value) }
        return result
    }

    /// The app's view of one received value.
    package static func object(from value: PlistValue) -> Any {
        switch value {
        case .string(let string): string
        case .integer(let integer): NSNumber(value: integer)
        case .double(let double): NSNumber(value: double)
        case .bool(let bool): NSNumber(value: bool)
        case .date(let date): date
        case .data(let data): data
        case .array(let array): array.map { object(from: $0) }
        case .dictionary(let dictionary): object(from: dictionary)
        }
    }
}
