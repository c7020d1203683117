#ifndef QUAVER_CLIBRARYLOADER_H
#define QUAVER_CLIBRARYLOADER_H

/* A shared library opened on first use, for the loaders of libcurl, libsqlite3, libpulse, GStreamer's pbutils and app
   and libquaver-taglib.so: a library the program does not link costs nothing resident until something needs it
   (docs/reliability.md). Each loader calls this once, under its own pthread_once, and keeps what it found read-only
   after; CSQLite's calls it again under its own lock after each unload. */

/* Opens the first of `files` that dlopen loads (RTLD_NOW | RTLD_LOCAL; glibc expands $ORIGIN to the running
   program's folder), then finds each of `names` into the same place of `found`. 1 on success; otherwise 0, with
   why in `error` (cut to `error_size`). A library lacking a name stays mapped: harmless, and unloading it could
   race other users of it. */
int quaver_open_library(const char *const files[], unsigned file_count, const char *const names[], void *found[],
                        unsigned count, char error[], unsigned error_size);

/* The same, giving the library's dlopen handle in `handle` on success, for a loader that unloads the library again
   (dlclose) once none of its users holds it (CSQLite). */
int quaver_open_library_handle(const char *const files[], unsigned file_count, const char *const names[],
                               void *found[], unsigned count, char error[], unsigned error_size, void **handle);

#endif
