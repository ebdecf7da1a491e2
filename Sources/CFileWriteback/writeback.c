#define _GNU_SOURCE
#include "CFileWriteback.h"

#include <errno.h>
#include <fcntl.h>

int watchpair_start_writeback(int descriptor, int64_t offset, int64_t count) {
#if defined(__linux__)
    return sync_file_range(descriptor, offset, count, SYNC_FILE_RANGE_WRITE) == 0 ? 0 : errno;
#else
    (void)descriptor;
    (void)offset;
    (void)count;
    return 0;
#endif
}
