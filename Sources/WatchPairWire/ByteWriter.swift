import Foundation

/// Appends big-endian integers and length-prefixed fields to a byte array.
///
/// Lengths and counts are `UInt32`; a field longer than `UInt32.max` bytes cannot be represented, so
/// its length is clamped and the receiver rejects the frame (it is over every frame limit anyway).
struct ByteWriter {
    var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ value: UInt8) {
        bytes.append(value)
    }

    /// Appends bytes as they are (an already encoded payload).
    mutating func write(contentsOf raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }

    mutating func write(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func write(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    mutating func write(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    mutating func writeLength(_ count: Int) {
        write(UInt32(clamping: count))
    }

    /// UInt32 length, then the UTF-8 bytes.
    mutating func write(string: String) {
        writeLength(string.utf8.count)
        bytes.append(contentsOf: string.utf8)
    }

    /// UInt32 length, then the bytes.
    mutating func write(lengthPrefixed data: Data) {
        writeLength(data.count)
        bytes.append(contentsOf: data)
    }

    /// The 16 bytes of the UUID in their usual order (`uuid_t`).
    mutating func write(_ uuid: UUID) {
        withUnsafeBytes(of: uuid.uuid) { bytes.append(contentsOf: $0) }
    }

    /// Overwrites four bytes at `offset` with a big-endian `UInt32`.
    mutating func patch(_ value: UInt32, at offset: Int) {
        for k in 0..<4 {
            bytes[offset + k] = UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * k))
        }
    }
}
