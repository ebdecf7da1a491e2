import Foundation

/// The exact binary encoding of property-list values used inside frames.
///
/// Each value is a tag byte and a payload (docs/WireFormat.md, "Property lists"). All integers are
/// big-endian; lengths and counts are `UInt32`. The encoding is canonical: dictionary keys are written in
/// increasing order of their UTF-8 bytes, and the decoder accepts only that order, so equal values
/// (with equal key bytes) always have equal encodings and every accepted encoding re-encodes to itself.
///
/// Encoding and size computation are iterative, so an arbitrarily deep value cannot overflow the stack;
/// decoding rejects containers nested deeper than `maxNestingDepth`.
public enum PlistCodec {
    /// The deepest container nesting accepted on decode: at most 64 arrays/dictionaries on any path
    /// from the root (scalars do not count). Senders should check `nestingDepth(of:)` first.
    public static let maxNestingDepth = 64

    enum Tag: UInt8 {
        case string = 0x01
        case integer = 0x02
        case double = 0x03
        case bool = 0x04
        case date = 0x05
        case data = 0x06
        case array = 0x07
        case dictionary = 0x08
    }

    /// Encodes one value: tag byte and payload.
    public static func encode(_ value: PlistValue) -> [UInt8] {
        var writer = ByteWriter()
        write(value, into: &writer)
        return writer.bytes
    }

    /// Encodes a dictionary; the same bytes as `encode(.dictionary(dictionary))`.
    public static func encode(_ dictionary: PlistDictionary) -> [UInt8] {
        encode(.dictionary(dictionary))
    }

    /// Decodes exactly one value; the whole input must be that value.
    ///
    /// - Throws: `FrameError.malformed(frameType: 0, reason:)`.
    public static func decode(_ bytes: some Collection<UInt8>) throws(FrameError) -> PlistValue {
        var reader = ByteReader(Array(bytes))
        do {
            let value = try readValue(&reader, depth: 0)
            try reader.expectEnd()
            return value
        } catch {
            throw .malformed(frameType: 0, reason: error.reason)
        }
    }

    /// Decodes exactly one value, which must be a dictionary (`.expectedDictionary` otherwise).
    ///
    /// - Throws: `FrameError.malformed(frameType: 0, reason:)`.
    public static func decodeDictionary(_ bytes: some Collection<UInt8>) throws(FrameError) -> PlistDictionary {
        var reader = ByteReader(Array(bytes))
        do {
            let value = try readDictionary(&reader)
            try reader.expectEnd()
            return value
        } catch {
            throw .malformed(frameType: 0, reason: error.reason)
        }
    }

    /// The size of `encode(value)` in bytes, computed without encoding.
    ///
    /// Used to check the payload limits (65,536 / 262,144 bytes) before anything is queued.
    public static func encodedSize(_ value: PlistValue) -> Int {
        var size = 0
        var pending = [value]
        while let v = pending.popLast() {
            size += 1
            switch v {
            case .string(let s): size += 4 + s.utf8.count
            case .integer, .double, .date: size += 8
            case .bool: size += 1
            case .data(let d): size += 4 + d.count
            case .array(let a):
                size += 4
                pending.append(contentsOf: a)
            case .dictionary(let d):
                size += 4
                for (key, element) in d {
                    size += 4 + key.utf8.count
                    pending.append(element)
                }
            }
        }
        return size
    }

    /// The size of `encode(dictionary)` in bytes, computed without encoding.
    public static func encodedSize(_ dictionary: PlistDictionary) -> Int {
        encodedSize(.dictionary(dictionary))
    }

    /// The number of containers on the deepest path from the root (0 for a scalar, 1 for `[]`).
    ///
    /// A value is decodable only when this is at most `maxNestingDepth`.
    public static func nestingDepth(of value: PlistValue) -> Int {
        var deepest = 0
        var pending: [(PlistValue, Int)] = [(value, 0)]
        while let (v, above) = pending.popLast() {
            switch v {
            case .array(let a):
                deepest = max(deepest, above + 1)
                pending.append(contentsOf: a.lazy.map { ($0, above + 1) })
            case .dictionary(let d):
                deepest = max(deepest, above + 1)
                pending.append(contentsOf: d.values.lazy.map { ($0, above + 1) })
            case .string, .integer, .double, .bool, .date, .data:
                break
            }
        }
        return deepest
    }

    // MARK: - Encoding

    /// Work left to do: a value to write, or a dictionary key to write before its value.
    private enum Pending {
        case value(PlistValue)
        case key(String)
    }

    static func write(_ value: PlistValue, into writer: inout ByteWriter) {
        // An explicit stack instead of recursion: no input depth can overflow the call stack.
        var pending: [Pending] = [.value(value)]
        while let item = pending.popLast() {
            switch item {
            case .key(let key):
                writer.write(string: key)
            case .value(.string(let s)):
                writer.write(Tag.string.rawValue)
                writer.write(string: s)
            case .value(.integer(let i)):
                writer.write(Tag.integer.rawValue)
                writer.write(UInt64(bitPattern: i))
            case .value(.double(let d)):
                writer.write(Tag.double.rawValue)
                writer.write(d.bitPattern)
            case .value(.bool(let b)):
                writer.write(Tag.bool.rawValue)
                writer.write(UInt8(b ? 1 : 0))
            case .value(.date(let date)):
                writer.write(Tag.date.rawValue)
                writer.write(date.timeIntervalSinceReferenceDate.bitPattern)
            case .value(.data(let d)):
                writer.write(Tag.data.rawValue)
                writer.write(lengthPrefixed: d)
            case .value(.array(let a)):
                writer.write(Tag.array.rawValue)
                writer.writeLength(a.count)
                pending.append(contentsOf: a.reversed().lazy.map { .value($0) })
            case .value(.dictionary(let d)):
                writer.write(Tag.dictionary.rawValue)
                writer.writeLength(d.count)
                let sorted = d.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                for (key, element) in sorted.reversed() {
                    pending.append(.value(element))
                    pending.append(.key(key))
                }
            }
        }
    }

    // MARK: - Decoding

    /// Reads a value whose container is nested in `depth` containers.
    static func readValue(_ reader: inout ByteReader, depth: Int) throws(MalformedError) -> PlistValue {
        let tagByte = try reader.readUInt8()
        guard let tag = Tag(rawValue: tagByte) else { throw MalformedError(.invalidPlistTag(tagByte)) }
        switch tag {
        case .string:
            return .string(try reader.readString())
        case .integer:
            return .integer(Int64(bitPattern: try reader.readUInt64()))
        case .double:
            return .double(Double(bitPattern: try reader.readUInt64()))
        case .bool:
            return .bool(try reader.readBool())
        case .date:
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.readUInt64())))
        case .data:
            return .data(try reader.readLengthPrefixedData())
        case .array:
            return .array(try readArrayContents(&reader, depth: depth + 1))
        case .dictionary:
            return .dictionary(try readDictionaryContents(&reader, depth: depth + 1))
        }
    }

    /// Reads a top-level value that must be a dictionary (a frame payload).
    static func readDictionary(_ reader: inout ByteReader) throws(MalformedError) -> PlistDictionary {
        let tagByte = try reader.readUInt8()
        guard let tag = Tag(rawValue: tagByte) else { throw MalformedError(.invalidPlistTag(tagByte)) }
        guard tag == .dictionary else { throw MalformedError(.expectedDictionary) }
        return try readDictionaryContents(&reader, depth: 1)
    }

    private static func readArrayContents(
        _ reader: inout ByteReader, depth: Int
    ) throws(MalformedError) -> [PlistValue] {
        guard depth <= maxNestingDepth else { throw MalformedError(.nestingTooDeep) }
        let count = Int(try reader.readUInt32())
        // The smallest element (a bool) takes 2 bytes: reject impossible counts before allocating.
        guard count <= reader.remaining / 2 else { throw MalformedError(.shortBody) }
        var array: [PlistValue] = []
        array.reserveCapacity(count)
        for _ in 0..<count {
            array.append(try readValue(&reader, depth: depth))
        }
        return array
    }

    private static func readDictionaryContents(
        _ reader: inout ByteReader, depth: Int
    ) throws(MalformedError) -> PlistDictionary {
        guard depth <= maxNestingDepth else { throw MalformedError(.nestingTooDeep) }
        let count = Int(try reader.readUInt32())
        // The smallest entry (empty key, bool) takes 4 + 2 bytes.
        guard count <= reader.remaining / 6 else { throw MalformedError(.shortBody) }
        var dictionary: PlistDictionary = [:]
        dictionary.reserveCapacity(count)
        var previousKey: Range<Int>? = nil
        for _ in 0..<count {
            let keyRange = try reader.skip(try reader.readLength())
            if let previous = previousKey {
                let bytes = reader.bytes
                if bytes[previous].elementsEqual(bytes[keyRange]) { throw MalformedError(.duplicateKey) }
                guard bytes[previous].lexicographicallyPrecedes(bytes[keyRange]) else {
                    throw MalformedError(.unsortedKeys)
                }
            }
            previousKey = keyRange
            guard let key = String(validating: reader.bytes[keyRange], as: UTF8.self) else {
                throw MalformedError(.invalidUTF8)
            }
            let value = try readValue(&reader, depth: depth)
            // Distinct bytes can still be equal Swift strings (canonical equivalence, e.g. "é" vs "e\u{301}").
            guard dictionary.updateValue(value, forKey: key) == nil else { throw MalformedError(.duplicateKey) }
        }
        return dictionary
    }
}
