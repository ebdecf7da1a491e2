import Foundation

/// Writes one JSON object straight into bytes, member by member, for hot paths that would otherwise
/// build a ``JSONValue`` tree only to write it out again (the event history writes a line per event).
///
/// The text is ``JSONValue/canonicalText``'s when the caller adds the members in canonical order (keys
/// ascending by their UTF-8 bytes, each once); debug builds check that order. Control responses and stream
/// events are written with it too (`ControlResponse+Line.swift`).
public struct JSONMemberWriter: Sendable {
    /// The text so far: `{` and the members added.
    public private(set) var bytes: [UInt8]
    private var isEmpty = true
    #if DEBUG
    private var lastKey: String?
    #endif

    /// Starts an object, reserving `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Starts an object at the end of `buffer`, which it takes (nothing is copied); ``finish(newline:)``
    /// returns it with the object appended: many objects written into one buffer (the event history's batch).
    public init(appendingTo buffer: inout [UInt8]) {
        bytes = []
        swap(&bytes, &buffer)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Adds `"key":"…"`, the string's bytes appended by `body`; they must need no escape (digits, hex, ASCII
    /// punctuation other than quote and backslash).
    public mutating func add(_ key: String, plainString body: (inout [UInt8]) -> Void) {
        writeKey(key)
        bytes.append(UInt8(ascii: "\""))
        body(&bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Adds `"key":"value"`, escaped as ``JSONValue/canonicalText`` escapes strings.
    public mutating func add(_ key: String, string value: String) {
        writeKey(key)
        JSONWriter.write(string: value, into: &bytes)
    }

    /// Adds `"key":value` for an integer.
    public mutating func add(_ key: String, integer value: Int64) {
        writeKey(key)
        TextBytes.append(decimal: value, to: &bytes)
    }

    /// Adds `"key":true` or `"key":false`.
    public mutating func add(_ key: String, bool value: Bool) {
        writeKey(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Adds `"key":value` for a value that is already a tree, in its canonical text.
    public mutating func add(_ key: String, json value: JSONValue) {
        writeKey(key)
        JSONWriter.write(value, into: &bytes)
    }

    /// Adds `"key":` and a property-list dictionary's JSON (``PlistValue/json``), written without the tree.
    public mutating func add(_ key: String, plist dictionary: PlistDictionary) {
        writeKey(key)
        PlistValue.writeJSON(dictionary: dictionary, into: &bytes)
    }

    /// Adds `"key":` and a timestamp as the control protocol writes it: the value of the date's
    /// `{"$date": …}` form (``PlistValue/json``), ISO 8601 text for years 0000–9999.
    public mutating func add(_ key: String, date: Date) {
        writeKey(key)
        PlistValue.writeDateText(date, into: &bytes)
    }

    /// Adds `"key":{…}`, the members `body` adds, written in place.
    public mutating func add(_ key: String, object body: (inout JSONMemberWriter) -> Void) {
        writeKey(key)
        // The bytes move to the inner writer and back, so nothing is copied.
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        var inner = JSONMemberWriter(continuing: consume taken)
        body(&inner)
        bytes = inner.finish()
    }

    /// Adds `"key":[…]`, the elements `body` appends, written in place.
    public mutating func add(_ key: String, array body: (inout JSONElementWriter) -> Void) {
        writeKey(key)
        var elements = JSONElementWriter(taking: &bytes)
        body(&elements)
        bytes = elements.finish()
    }

    /// Continues `bytes` with a new object: the nested object of ``add(_:object:)``.
    fileprivate init(continuing bytes: [UInt8]) {
        self.bytes = bytes
        self.bytes.append(UInt8(ascii: "{"))
    }

    /// Ends the object (and, with `newline`, the line) and returns the text.
    public consuming func finish(newline: Bool = false) -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        if newline { bytes.append(UInt8(ascii: "\n")) }
        return bytes
    }

    private mutating func writeKey(_ key: String) {
        #if DEBUG
        assert(lastKey.map { $0.utf8.lexicographicallyPrecedes(key.utf8) } ?? true, "JSON keys out of canonical order: \(lastKey!) before \(key)")
        lastKey = key
        #endif
        if !isEmpty { bytes.append(UInt8(ascii: ",")) }
        isEmpty = false
        JSONWriter.write(string: key, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }
}

/// Writes the elements of a JSON array in place (``JSONMemberWriter/add(_:array:)``): objects written
/// member by member, as the writer writes its own.
public struct JSONElementWriter: Sendable {
    private var bytes: [UInt8]
    private var isEmpty = true

    /// Takes the text so far and opens the array; ``finish()`` gives it back.
    fileprivate init(taking text: inout [UInt8]) {
        bytes = []
        swap(&bytes, &text)
        bytes.append(UInt8(ascii: "["))
    }

    /// Appends an object, its members added by `body` (in canonical order).
    public mutating func appendObject(_ body: (inout JSONMemberWriter) -> Void) {
        if !isEmpty { bytes.append(UInt8(ascii: ",")) }
        isEmpty = false
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        var inner = JSONMemberWriter(continuing: consume taken)
        body(&inner)
        bytes = inner.finish()
    }

    /// Closes the array and returns the text.
    fileprivate consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }
}
