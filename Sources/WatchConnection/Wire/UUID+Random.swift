import Foundation

extension UUID {
    /// A random (version 4) UUID from the system's generator (`getrandom(2)` on Linux, no file descriptor).
    ///
    /// Why not `UUID()`: on Linux, Foundation opens, reads and closes /dev/urandom for every id, and a
    /// profile of typed requests put that open at about a tenth of the sender's CPU per request
    /// (BENCHMARKS.md, "The reliability layer").
    static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A version 4 UUID of `generator`'s next 128 bits, with the version and variant bits set (RFC 9562).
    static func random(using generator: inout some RandomNumberGenerator) -> UUID {
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: 8, as: UInt64.self)
            bytes[6] = bytes[6] & 0x0F | 0x40
            bytes[8] = bytes[8] & 0x3F | 0x80
        }
        return UUID(uuid: uuid)
    }
}
