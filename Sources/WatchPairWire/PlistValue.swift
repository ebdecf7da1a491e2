import Foundation

/// A property-list value: the only kind of value the three channels carry (docs/WireFormat.md, "Property lists").
///
/// Dictionaries have string keys. Dates keep full `Date` precision (seconds since 2001-01-01 as a
/// `Double`, exactly as Apple's binary plists store them).
public indirect enum PlistValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// A signed 64-bit integer.
    case integer(Int64)
    /// A 64-bit floating-point number (any bit pattern, NaN and infinities included).
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// A date.
    case date(Date)
    /// Bytes.
    case data(Data)
    /// An array.
    case array([PlistValue])
    /// A dictionary with string keys.
    case dictionary([String: PlistValue])
}

/// A property-list dictionary: the payload of a message, a userInfo transfer or a context.
public typealias PlistDictionary = [String: PlistValue]
