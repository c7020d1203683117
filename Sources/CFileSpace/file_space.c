#define _GNU_SOURCE
#include <fcntl.h>

#include "CFileSpace.h"

int quaver_punch_hole(int fd, long long offset, long long length) {
    return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length);
}
