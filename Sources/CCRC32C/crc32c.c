// CRC-32C with the SSE4.2 `crc32` instruction. The instruction computes exactly the Castagnoli CRC
// (reflected, polynomial 0x82F63B78) that WatchPairWire's software slice-by-8 computes, eight bytes per
// instruction, several times faster than a table walk.
//
// The function is compiled for SSE4.2 on its own (`target("sse4.2")`), so the rest of the package keeps
// the baseline x86-64 target and still runs on CPUs without it; the caller checks
// `watchpair_crc32c_hardware_available()` first. CPUID is read through <cpuid.h>, header-only, rather
// than `__builtin_cpu_supports`, which needs libgcc's or compiler-rt's `__cpu_model` at link time.

#include "CCRC32C.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <nmmintrin.h>

int watchpair_crc32c_hardware_available(void) {
    // 0 unknown, 1 absent, 2 present. A race only repeats the CPUID query; the answer is the same.
    static volatile int cached = 0;
    if (cached == 0) {
        unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
        int present = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_SSE4_2) != 0;
        cached = present ? 2 : 1;
    }
    return cached == 2;
}

__attribute__((target("sse4.2")))
uint32_t watchpair_crc32c_hardware_update(uint32_t crc, const uint8_t *bytes, size_t length) {
    uint64_t c = ~crc;
    // Byte steps until the pointer is 8-aligned, so the 8-byte loads below never straddle a line.
    while (length > 0 && ((uintptr_t)bytes & 7) != 0) {
        c = _mm_crc32_u8((uint32_t)c, *bytes++);
        length--;
    }
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);  // an aligned load; memcpy keeps it free of aliasing rules
        c = _mm_crc32_u64(c, word);
        bytes += 8;
        length -= 8;
    }
    while (length > 0) {
        c = _mm_crc32_u8((uint32_t)c, *bytes++);
        length--;
    }
    return ~(uint32_t)c;
}

#else

int watchpair_crc32c_hardware_available(void) {
    return 0;
}

uint32_t watchpair_crc32c_hardware_update(uint32_t crc, const uint8_t *bytes, size_t length) {
    // Never called: the caller checks availability. Kept so the symbol links on every architecture.
    (void)bytes;
    (void)length;
    return crc;
}

#endif
