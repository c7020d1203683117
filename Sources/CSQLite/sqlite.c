#include "CSQLite.h"

#include <CLibraryLoader.h>
#include <pthread.h>

/* The libsqlite3 functions Quaver uses, found once under pthread_once, read-only after: `call` names them, `found`
   is the same memory in the order of `names` (both made from QUAVER_SQLITE_FUNCTIONS, then sqlite3_config, which
   is variadic and so called only here, in C). */
#define QUAVER_SQLITE_NAME(result, name, parameters, arguments) "sqlite3_" #name,
static const char *const names[] = {QUAVER_SQLITE_FUNCTIONS(QUAVER_SQLITE_NAME) "sqlite3_config"};
#define QUAVER_SQLITE_SLOT(result, name, parameters, arguments) result (*name) parameters;
static union {
    struct {
        QUAVER_SQLITE_FUNCTIONS(QUAVER_SQLITE_SLOT)
        int (*config)(int, ...);
    } call;
    void *found[sizeof names / sizeof names[0]];
} api;
_Static_assert(sizeof api.call == sizeof api.found, "one function pointer per name");

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256] = "";

static void load(void) {
    static const char *const files[] = {"libsqlite3.so.0"};
    loaded = quaver_open_library(files, 1, names, api.found, sizeof names / sizeof names[0], load_error,
                                 sizeof load_error);
    /* Before any connection (sqlite3_config works only before sqlite3_initialize, which the first open runs): with
       no page-cache buffer and no pages, SQLite allocates each connection's cache pages as they are needed instead
       of a first block of SQLITE_DEFAULT_PCACHE_INITSZ pages (20 of ~4.3 KiB on Debian) written through at once
       (docs/reliability.md, "Memory while playing"). */
    if (loaded) api.call.config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
}

int quaver_sqlite_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

const char *quaver_sqlite_load_error(void) { return load_error; }

#define QUAVER_SQLITE_CALL(result, name, parameters, arguments) \
    result quaver_sqlite3_##name parameters { return api.call.name arguments; }
QUAVER_SQLITE_FUNCTIONS(QUAVER_SQLITE_CALL)
