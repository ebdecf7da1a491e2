extension CRC32C {
    /// The software path: table-driven, slice-by-8 (eight bytes per step). The fallback on CPUs
    /// without a CRC-32C instruction, and the reference the hardware path is tested against.
    static func softwareUpdate(_ crc: UInt32, buffer: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let t = tables
        var c = ~crc
        var i = 0
        let n = buffer.count
        t.withUnsafeBufferPointer { t in
            // Eight bytes per step: one lookup per byte in its own table, XORed together.
            while n - i >= 8 {
                let lo = c ^ (UInt32(buffer[i]) | UInt32(buffer[i + 1]) << 8
                    | UInt32(buffer[i + 2]) << 16 | UInt32(buffer[i + 3]) << 24)
                let hi = UInt32(buffer[i + 4]) | UInt32(buffer[i + 5]) << 8
                    | UInt32(buffer[i + 6]) << 16 | UInt32(buffer[i + 7]) << 24
                c = t[7 * 256 + Int(lo & 0xFF)]
                    ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xFF)]
                    ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)]
                    ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((hi >> 16) & 0xFF)]
                    ^ t[Int(hi >> 24)]
                i += 8
            }
            while i < n {
                c = t[Int((c ^ UInt32(buffer[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
        }
        return ~c
    }

    /// Eight 256-entry tables, flat: table k at offset k × 256. Table 0 is the classic byte table;
    /// table k advances a byte's contribution by k further zero bytes.
    static let tables: [UInt32] = {
        let polynomial: UInt32 = 0x82F6_3B78
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var c = UInt32(byte)
            for _ in 0..<8 {
                c = (c & 1) != 0 ? (c >> 1) ^ polynomial : c >> 1
            }
            t[byte] = c
        }
        for k in 1..<8 {
            for byte in 0..<256 {
                let previous = t[(k - 1) * 256 + byte]
                t[k * 256 + byte] = (previous >> 8) ^ t[Int(previous & 0xFF)]
            }
        }
        return t
    }()
}
