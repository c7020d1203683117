#ifndef QUAVER_CFILESPACE_H
#define QUAVER_CFILESPACE_H

/* fallocate(2) is a GNU extension that Swift's Glibc module leaves out (it needs _GNU_SOURCE).
   C interop: only the RemoteMedia wrapper may import this module (docs/ARCHITECTURE.md, "Layers"). */

/* Gives the disk blocks of `length` bytes at `offset` back (FALLOC_FL_PUNCH_HOLE, the file keeps its size;
   the range then reads as zeros). 0 on success, else -1 with errno set (EOPNOTSUPP on file systems
   without holes). */
int quaver_punch_hole(int fd, long long offset, long long length);

#endif
