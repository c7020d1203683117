#ifndef QUAVER_CSQLITE_H
#define QUAVER_CSQLITE_H

/* libsqlite3, loaded on first use (dlopen of libsqlite3.so.0) and unloaded when the last connection closes: a daemon
   that has no library index and no listening history yet never maps it. Linked, its symbol tables, relocated data
   and the code around them were 256 KiB resident from start-up on, with no connection ever opened
   (docs/reliability.md). The types and constants come from sqlite3.h; every call goes through the quaver_sqlite3_
   functions below, never to an sqlite3_ symbol directly (the program is not linked against libsqlite3). */
/* C interop: only the SQLite wrapper may import this module (docs/ARCHITECTURE.md, "Layers"). */
#include <sqlite3.h>

/* Holds libsqlite3 for one user (a connection), loading it when nobody holds it (thread-safe). 1 on success;
   otherwise quaver_sqlite_load_error() says why. Every function below may be called only while held. */
int quaver_sqlite_load(void);
/* Lets go of what one quaver_sqlite_load holds; the last to let go unloads libsqlite3 (dlclose), so a daemon whose
   connections are all closed (the history between writes) does not keep its 1.3 MB resident. */
void quaver_sqlite_release(void);
const char *quaver_sqlite_load_error(void);

/* The functions Quaver uses, each as X(result type, name without sqlite3_, parameters, arguments): the loader finds
   sqlite3_<name> and quaver_sqlite3_<name> calls it. */
#define QUAVER_SQLITE_FUNCTIONS(X) \
    X(int, open_v2, (const char *file, sqlite3 **db, int flags, const char *vfs), (file, db, flags, vfs)) \
    X(int, close_v2, (sqlite3 *db), (db)) \
    X(int, extended_result_codes, (sqlite3 *db, int on), (db, on)) \
    X(int, busy_timeout, (sqlite3 *db, int ms), (db, ms)) \
    X(int, exec, (sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *data, char **error), \
      (db, sql, callback, data, error)) \
    X(void, free, (void *memory), (memory)) \
    X(const char *, errmsg, (sqlite3 *db), (db)) \
    X(const char *, errstr, (int code), (code)) \
    X(int, changes, (sqlite3 *db), (db)) \
    X(int, db_readonly, (sqlite3 *db, const char *name), (db, name)) \
    X(sqlite3_int64, last_insert_rowid, (sqlite3 *db), (db)) \
    X(int, prepare_v2, (sqlite3 *db, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail), \
      (db, sql, bytes, statement, tail)) \
    X(int, finalize, (sqlite3_stmt *statement), (statement)) \
    X(int, reset, (sqlite3_stmt *statement), (statement)) \
    X(int, clear_bindings, (sqlite3_stmt *statement), (statement)) \
    X(int, step, (sqlite3_stmt *statement), (statement)) \
    X(int, bind_null, (sqlite3_stmt *statement, int index), (statement, index)) \
    X(int, bind_int64, (sqlite3_stmt *statement, int index, sqlite3_int64 value), (statement, index, value)) \
    X(int, bind_double, (sqlite3_stmt *statement, int index, double value), (statement, index, value)) \
    X(int, bind_text, (sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *)), \
      (statement, index, text, bytes, destructor)) \
    X(int, bind_blob, (sqlite3_stmt *statement, int index, const void *blob, int bytes, void (*destructor)(void *)), \
      (statement, index, blob, bytes, destructor)) \
    X(int, column_count, (sqlite3_stmt *statement), (statement)) \
    X(int, column_type, (sqlite3_stmt *statement, int column), (statement, column)) \
    X(sqlite3_int64, column_int64, (sqlite3_stmt *statement, int column), (statement, column)) \
    X(double, column_double, (sqlite3_stmt *statement, int column), (statement, column)) \
    X(int, column_bytes, (sqlite3_stmt *statement, int column), (statement, column)) \
    X(const unsigned char *, column_text, (sqlite3_stmt *statement, int column), (statement, column)) \
    X(const void *, column_blob, (sqlite3_stmt *statement, int column), (statement, column)) \
    X(sqlite3_int64, memory_used, (void), ())

#define QUAVER_SQLITE_DECLARE(result, name, parameters, arguments) result quaver_sqlite3_##name parameters;
QUAVER_SQLITE_FUNCTIONS(QUAVER_SQLITE_DECLARE)
#undef QUAVER_SQLITE_DECLARE

/* SQLITE_TRANSIENT is a cast macro ((sqlite3_destructor_type)-1), which Swift cannot see: sqlite3 copies the bytes
   bound with it before the bind call returns. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
