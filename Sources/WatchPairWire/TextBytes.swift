import Foundation

/// Numbers and UUIDs written as text straight into a byte buffer, for the event lines every event writes
/// twice (history file, stderr): `String(n)` or `uuidString` and a copy of it was a string per piece.
public enum TextBytes {
    /// Appends `value` in decimal, as `String(value)` writes it.
    public static func append(decimal value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        append(decimal: value.magnitude, to: &out)
    }

    /// Appends `value` in decimal, as `String(value)` writes it.
    public static func append(decimal value: UInt64, to out: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 20 digits at most: 24 bytes of room
        withUnsafeMutableBytes(of: &digits) { room in
            var rest = value
            var index = room.count
            repeat {
                index -= 1
                room[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            out.append(contentsOf: room[index...])
        }
    }

    /// Appends `uuid` as `uuid.uuidString` writes it: upper-case hex in groups of 8-4-4-4-12.
    public static func append(uuid: UUID, to out: inout [UInt8]) {
        let hex: StaticString = "0123456789ABCDEF"
        withUnsafeBytes(of: uuid.uuid) { bytes in
            hex.withUTF8Buffer { hex in
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0x0F)])
                }
            }
        }
    }
}
