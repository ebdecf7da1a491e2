/// Property-list values read straight from JSON text, with the conventions of `PlistValue.init(json:)`
/// and its errors, but without building a `JSONValue` tree first: a control request's payload
/// (`message`, `userInfo`, `context`, …) becomes the value the engine stores in one pass.
extension PlistValue {
    /// Reads the next value of `reader`; `path` names it in errors (`at .items[2]`).
    ///
    /// - Throws: `WCFailure(.payloadUnsupportedTypes, …)` for a `null`; the other errors of
    ///   `init(json:)`; 7008 for text that is not JSON (a repeated key included).
    public init(reading reader: inout JSONReader, path: String = "") throws(WCFailure) {
        self = try Self.read(&reader, path: path, depth: 0)
    }

    /// Reads an object as a dictionary (a single reserved key is refused, as in
    /// `PlistJSON.dictionary(fromJSON:name:)`); `name` names the payload in errors.
    public static func readDictionary(_ reader: inout JSONReader, name: String) throws(WCFailure) -> PlistDictionary {
        guard try reader.kind() == .object else { throw WCFailure(.invalidParameter, "\(name) must be a JSON object.") }
        guard case .dictionary(let dictionary) = try read(&reader, path: "", depth: 0) else {
            throw WCFailure(.invalidParameter, "\(name) must be a dictionary, not a single $data, $date or $double value.")
        }
        return dictionary
    }

    private static func read(_ reader: inout JSONReader, path: String, depth: Int) throws(WCFailure) -> PlistValue {
        switch try reader.kind() {
        case .null:
            throw WCFailure(.payloadUnsupportedTypes, "null is not a property-list value (at \(path.isEmpty ? "." : path)).")
        case .bool: return .bool(try reader.readBool())
        case .string: return .string(try reader.readString())
        case .number:
            let number = try reader.readNumber()
            if case .integer(let i) = number { return .integer(i) }
            guard case .double(let d) = number else { preconditionFailure("readNumber reads integers and doubles") }
            return .double(d)
        case .array:
            guard depth < PlistCodec.maxNestingDepth else { throw tooDeep("at " + (path.isEmpty ? "." : path)) }
            try reader.beginArray()
            var result: [PlistValue] = []
            while try reader.nextElement() {
                result.append(try read(&reader, path: path + "[\(result.count)]", depth: depth + 1))
            }
            return .array(result)
        case .object:
            if let reserved = try readReserved(&reader, path: path, depth: depth) { return reserved }
            return .dictionary(try readEntries(&reader, path: path, depth: depth))
        }
    }

    /// A `$data`/`$date`/`$double`/`$dict` value when the object at `reader` has exactly one member
    /// and its key is reserved (then `reader` moves past it); nil, `reader` unmoved, for a dictionary.
    private static func readReserved(_ reader: inout JSONReader, path: String, depth: Int) throws(WCFailure) -> PlistValue? {
        // Look ahead on a copy: whether the object ends after its first member decides what it is.
        var probe = reader
        try probe.beginObject()
        guard let key = try probe.nextKey(), reservedJSONKeys.contains(key) else { return nil }
        var value = probe
        try probe.skipValue()
        guard try probe.nextKey() == nil else { return nil }
        let result: PlistValue
        if key == "$dict", try value.kind() == .object {
            result = .dictionary(try readEntries(&value, path: path + pathComponent(key), depth: depth))
        } else {
            // A scalar (or a wrong type, which convertReserved names): small, so a tree costs nothing.
            result = try convertReserved(key: key, value: try value.readValue(), path: path, depth: depth)
        }
        reader = probe
        return result
    }

    private static func readEntries(_ reader: inout JSONReader, path: String, depth: Int) throws(WCFailure) -> PlistDictionary {
        guard depth < PlistCodec.maxNestingDepth else { throw tooDeep("at " + (path.isEmpty ? "." : path)) }
        try reader.beginObject()
        var result: PlistDictionary = [:]
        while let (key, offset) = try reader.nextKeyWithOffset() {
            let value = try read(&reader, path: path + pathComponent(key), depth: depth + 1)
            guard result.updateValue(value, forKey: key) == nil else {
                throw JSONReader.failure(at: offset, "repeated key")
            }
        }
        return result
    }
}
