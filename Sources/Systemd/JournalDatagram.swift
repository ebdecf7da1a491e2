/// One journald entry in the native protocol's datagram, written field by field into one buffer: for a
/// caller that sends an entry per event from an event loop, where a `String` per field, a `KEY=value`
/// string per payload and a copy of each were most of an entry's cost.
///
/// The form is libsystemd's: `KEY=value\n` per field, or `KEY\n`, the value's length as 64-bit little
/// endian, the value and `\n` for a value that holds a newline.
public struct JournalDatagram: Sendable {
    /// The datagram so far.
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// Empties the datagram, keeping its buffer for the next entry.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Adds a field. `name` (after `namePrefix`) must be a name ``JournalFields/sanitize(_:)`` keeps as it
    /// is: the caller's own constants, not input.
    public mutating func add(_ name: String, namePrefix: String = "", value: String) {
        add(name: { bytes in
            bytes.append(contentsOf: namePrefix.utf8)
            bytes.append(contentsOf: name.utf8)
        }, value: value.utf8)
    }

    /// Adds a field whose value `write` appends and which holds no newline (digits, identifiers).
    public mutating func add(_ name: String, namePrefix: String = "", plainValue write: (inout [UInt8]) -> Void) {
        bytes.append(contentsOf: namePrefix.utf8)
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: "="))
        write(&bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Adds a field from its name's and its value's bytes.
    mutating func add(name: [UInt8], value: some Collection<UInt8>) {
        add(name: { $0.append(contentsOf: name) }, value: value)
    }

    private mutating func add(name writeName: (inout [UInt8]) -> Void, value: some Collection<UInt8>) {
        writeName(&bytes)
        if value.contains(UInt8(ascii: "\n")) {
            bytes.append(UInt8(ascii: "\n"))
            withUnsafeBytes(of: UInt64(value.count).littleEndian) { bytes.append(contentsOf: $0) }
        } else {
            bytes.append(UInt8(ascii: "="))
        }
        bytes.append(contentsOf: value)
        bytes.append(UInt8(ascii: "\n"))
    }
}
