internal import CCRC32C

/// CRC-32C (Castagnoli), the checksum in every frame's trailer.
///
/// Reflected polynomial 0x82F63B78, initial value and final XOR 0xFFFFFFFF (the variant of iSCSI,
/// ext4 and SCTP; check value: `"123456789"` → 0xE3069283). Computed by the CPU's `crc32` instruction
/// where it has one (SSE4.2 on x86-64, checked once at run time), else by a table-driven slice-by-8;
/// both give the same results.
public enum CRC32C {
    /// How a checksum is computed.
    public enum Implementation: Sendable, Equatable {
        /// The CPU's CRC-32C instruction (SSE4.2 `crc32`), eight bytes per instruction.
        case hardware
        /// Table-driven slice-by-8 in Swift, on every CPU.
        case software
    }

    /// The implementation this process uses: `.hardware` when the CPU has the instruction.
    public static let implementation: Implementation =
        watchpair_crc32c_hardware_available() != 0 ? .hardware : .software

    /// The CRC-32C of `bytes`.
    public static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        update(0, with: bytes)
    }

    /// Continues a checksum: `update(checksum(a), with: b) == checksum(a + b)`.
    ///
    /// Start from 0 for a fresh checksum.
    public static func update(_ crc: UInt32, with bytes: some Collection<UInt8>) -> UInt32 {
        update(crc, with: bytes, using: implementation)
    }

    /// Continues a checksum with a chosen implementation, for tests and benchmarks that compare the two.
    ///
    /// - Precondition: `.hardware` only where ``implementation`` is `.hardware`.
    public static func update(
        _ crc: UInt32, with bytes: some Collection<UInt8>, using implementation: Implementation
    ) -> UInt32 {
        if let result = bytes.withContiguousStorageIfAvailable({ update(crc, buffer: $0, using: implementation) }) {
            return result
        }
        return Array(bytes).withUnsafeBufferPointer { update(crc, buffer: $0, using: implementation) }
    }

    static func update(_ crc: UInt32, buffer: UnsafeBufferPointer<UInt8>) -> UInt32 {
        update(crc, buffer: buffer, using: implementation)
    }

    static func update(
        _ crc: UInt32, buffer: UnsafeBufferPointer<UInt8>, using implementation: Implementation
    ) -> UInt32 {
        switch implementation {
        case .hardware:
            precondition(Self.implementation == .hardware, "CRC-32C: this CPU has no crc32 instruction")
            guard let base = buffer.baseAddress else { return crc }
            return watchpair_crc32c_hardware_update(crc, base, buffer.count)
        case .software:
            return softwareUpdate(crc, buffer: buffer)
        }
    }
}
