#ifndef WATCHPAIR_CCRC32C_H
#define WATCHPAIR_CCRC32C_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU has a CRC-32C instruction this library uses (SSE4.2 `crc32` on x86-64).
/// Asked of the CPU once (CPUID); the answer is then cached. Always false on other architectures.
int watchpair_crc32c_hardware_available(void);

/// Continues a CRC-32C (Castagnoli) with the CPU's `crc32` instruction: the same contract as Swift's
/// `CRC32C.update` (start from 0; pre- and post-inversion inside). Call only when
/// `watchpair_crc32c_hardware_available()` returned nonzero.
uint32_t watchpair_crc32c_hardware_update(uint32_t crc, const uint8_t *bytes, size_t length);

#endif
