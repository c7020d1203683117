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

/* A loader's table of the functions it finds. `LIST(X)` names them, each as X(result type, name, parameters, …), and
   each is looked up as QUAVER_LIBRARY_PREFIX (a string the loader defines first) followed by its name: `api.call.name`
   calls one, and `api.found` is the same memory in the order of `names`, for quaver_open_library to fill. */
#define QUAVER_LIBRARY_NAME(result, name, parameters, ...) QUAVER_LIBRARY_PREFIX #name,
#define QUAVER_LIBRARY_SLOT(result, name, parameters, ...) result (*name) parameters;
#define QUAVER_LIBRARY_TABLE(LIST, names, api)                                                                  \
    static const char *const names[] = {LIST(QUAVER_LIBRARY_NAME)};                                              \
    static union {                                                                                                \
        struct { LIST(QUAVER_LIBRARY_SLOT) } call;                                                               \
        void *found[sizeof names / sizeof names[0]];                                                              \
    } api;                                                                                                        \
    _Static_assert(sizeof api.call == sizeof api.found, "one function pointer per name")
#define QUAVER_LIBRARY_COUNT(names) (unsigned)(sizeof names / sizeof names[0])

#endif
