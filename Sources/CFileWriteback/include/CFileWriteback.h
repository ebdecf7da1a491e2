#ifndef WATCHPAIR_CFILEWRITEBACK_H
#define WATCHPAIR_CFILEWRITEBACK_H

#include <stdint.h>

/// Starts writing the dirty pages of `count` bytes of the file `descriptor` from `offset` to disk, without
/// waiting for them (Linux `sync_file_range(SYNC_FILE_RANGE_WRITE)`), so a later fsync finds less to
/// write. Makes nothing durable on its own: only the fsync does. Returns 0, or the errno of the failure;
/// 0 without doing anything where the call does not exist. Glibc declares it only with _GNU_SOURCE, which
/// Swift's Glibc module does not import, hence this shim.
int watchpair_start_writeback(int descriptor, int64_t offset, int64_t count);

#endif
