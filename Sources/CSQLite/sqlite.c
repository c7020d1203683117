#include "CSQLite.h"

#include <CLibraryLoader.h>
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

/* The libsqlite3 functions Quaver uses: QUAVER_SQLITE_FUNCTIONS, then sqlite3_config, which is variadic and so
   called only here, in C. Written under `lock` while no connection holds the library, read by the holders only
   (quaver_sqlite_load's lock orders those writes before their reads). */
#define QUAVER_SQLITE_FOUND(X) QUAVER_SQLITE_FUNCTIONS(X) X(int, config, (int, ...), ())
#define QUAVER_LIBRARY_PREFIX "sqlite3_"
QUAVER_LIBRARY_TABLE(QUAVER_SQLITE_FOUND, names, api);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *library = NULL;
static int holders = 0;
static char load_error[256] = "";

/* Under `lock`, with no holder. */
static int load(void) {
    static const char *const files[] = {"libsqlite3.so.0"};
    if (!quaver_open_library_handle(files, 1, names, api.found, QUAVER_LIBRARY_COUNT(names), load_error,
                                    sizeof load_error, &library)) return 0;
    /* Before any connection (sqlite3_config works only before sqlite3_initialize, which the first open runs): with
       no page-cache buffer and no pages, SQLite allocates each connection's cache pages as they are needed instead
       of a first block of SQLITE_DEFAULT_PCACHE_INITSZ pages (20 of ~4.3 KiB on Debian) written through at once
       (docs/reliability.md, "Memory while playing"). */
    api.call.config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
    return 1;
}

/* Under `lock`, with no holder. No sqlite3_shutdown: libsoup links libsqlite3 too, and shutting down an instance
   another library may use is not ours to do; with every connection of ours closed SQLite holds no memory of its own
   (its global mutexes are static, the one it allocates, sqlite3_initialize frees), so unmapping it leaks nothing. */
static void unload(void) {
    dlclose(library);
    library = NULL;
    memset(&api, 0, sizeof api);
}

int quaver_sqlite_load(void) {
    pthread_mutex_lock(&lock);
    int held = library != NULL || load();
    if (held) holders += 1;
    pthread_mutex_unlock(&lock);
    return held;
}

void quaver_sqlite_release(void) {
    pthread_mutex_lock(&lock);
    if (holders > 0 && --holders == 0) unload();
    pthread_mutex_unlock(&lock);
}

const char *quaver_sqlite_load_error(void) { return load_error; }

#define QUAVER_SQLITE_CALL(result, name, parameters, arguments) \
    result quaver_sqlite3_##name parameters { return api.call.name arguments; }
QUAVER_SQLITE_FUNCTIONS(QUAVER_SQLITE_CALL)
