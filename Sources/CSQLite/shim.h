/* CSQLite: the C header of the system's libsqlite3 (pkg-config sqlite3) for Swift. A C interop module: only the
   SQLite wrapper module imports it (docs/ARCHITECTURE.md, "Layers"). */
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro ((sqlite3_destructor_type)-1), which Swift cannot see: sqlite3 copies the bytes
   bound with it before the bind call returns. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/* sqlite3_config is variadic. With no page-cache buffer and no pages (SQLITE_CONFIG_PAGECACHE NULL, 0, 0), SQLite
   does not give each connection a first block of SQLITE_DEFAULT_PCACHE_INITSZ pages (20 of ~4.3 KiB on Debian,
   written through at once) but allocates its pages one at a time as they are needed. Only before sqlite3_initialize. */
static inline int csqlite_config_no_initial_page_block(void) {
    return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
}
