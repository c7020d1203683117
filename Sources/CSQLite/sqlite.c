#include "CSQLite.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The libsqlite3 functions Quaver uses, found with dlsym. Set once under pthread_once, read-only after. */
#define QUAVER_SQLITE_SLOT(result, name, parameters, arguments) result (*name) parameters;
static struct { QUAVER_SQLITE_FUNCTIONS(QUAVER_SQLITE_SLOT) } api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256] = "";

static int find(void *library, const char *name, void **slot) {
    *slot = dlsym(library, name);
    if (*slot) return 1;
    snprintf(load_error, sizeof load_error, "libsqlite3.so.0 lacks %s", name);
    return 0;
}

static void load(void) {
    void *library = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "cannot load libsqlite3.so.0: %s", dlerror());
        return;
    }
#define QUAVER_SQLITE_FIND(result, name, parameters, arguments) && find(library, "sqlite3_" #name, (void **)&api.name)
    /* The library stays mapped when one is missing: harmless, and unloading could race other users. */
    loaded = 1 QUAVER_SQLITE_FUNCTIONS(QUAVER_SQLITE_FIND);
    /* Before any connection (sqlite3_config works only before sqlite3_initialize, which the first open runs): with
       no page-cache buffer and no pages, SQLite allocates each connection's cache pages as they are needed instead
       of a first block of SQLITE_DEFAULT_PCACHE_INITSZ pages (20 of ~4.3 KiB on Debian) written through at once
       (docs/reliability.md, "Memory while playing"). sqlite3_config is variadic, so it is called here, in C. */
    int (*config)(int, ...) = (int (*)(int, ...))dlsym(library, "sqlite3_config");
    if (loaded && config) config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
}

int quaver_sqlite_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

const char *quaver_sqlite_load_error(void) { return load_error; }

#define QUAVER_SQLITE_CALL(result, name, parameters, arguments) \
    result quaver_sqlite3_##name parameters { return api.name arguments; }
QUAVER_SQLITE_FUNCTIONS(QUAVER_SQLITE_CALL)
