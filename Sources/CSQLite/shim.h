/* CSQLite: the C header of the system's libsqlite3 (pkg-config sqlite3) for Swift. A C interop module: only the
   SQLite wrapper module imports it (docs/ARCHITECTURE.md, "Layers"). */
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro ((sqlite3_destructor_type)-1), which Swift cannot see: sqlite3 copies the bytes
   bound with it before the bind call returns. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
