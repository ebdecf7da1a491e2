#!/usr/bin/env bash
# CRC-32C throughput on this machine: WatchPairWire's software slice-by-8 against the CPU's instruction
# (Sources/CCRC32C), both optimized, on a 1 MiB buffer; best of 5 rounds of 64 passes each.
# usage: scripts/bench/crc32c-rate.sh   (needs only the Swift toolchain; builds in a temporary folder)
set -euo pipefail
src=$(cd "$(dirname "$0")/../../Sources" && pwd)
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
printf 'module CCRC32C {\n    header "%s/CCRC32C/include/CCRC32C.h"\n    export *\n}\n' "$src" > "$dir/module.modulemap"
echo 'enum CRC32C {}' > "$dir/CRC32C.swift"
cat > "$dir/main.swift" <<'SWIFT'
import CCRC32C
import Foundation

let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
func rate(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> UInt32) {
    var best = Double.infinity
    var sink: UInt32 = 0
    bytes.withUnsafeBufferPointer { buffer in
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<64 { sink &+= body(buffer) }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
    }
    print(name, String(format: "%6.0f MiB/s", 64 / best), "(checksum sum \(String(sink, radix: 16)))")
}
rate("software slice-by-8:") { CRC32C.softwareUpdate(0, buffer: $0) }
if watchpair_crc32c_hardware_available() != 0 {
    rate("hardware crc32:     ") { watchpair_crc32c_hardware_update(0, $0.baseAddress, $0.count) }
} else {
    print("hardware crc32: not on this CPU")
}
SWIFT
clang -O2 -c -I"$src/CCRC32C/include" "$src/CCRC32C/crc32c.c" -o "$dir/crc32c.o"
swiftc -O -I"$dir" "$dir/CRC32C.swift" "$src/WatchPairWire/CRC32C+SliceBy8.swift" "$dir/main.swift" \
    "$dir/crc32c.o" -o "$dir/crc32c-rate"
"$dir/crc32c-rate"
