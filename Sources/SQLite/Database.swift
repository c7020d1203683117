import CSQLite
import Glibc

/// One connection to an SQLite database file (`sqlite3_open_v2`), closed (`sqlite3_close_v2`) in deinit.
///
/// A connection is used by one thread at a time: it is opened with `SQLITE_OPEN_NOMUTEX`, so SQLite takes no lock of
/// its own, and the store that owns it keeps it on one thread (or one serial queue). Two connections to the same file
/// (a writer and a reader on different threads) are fine: the file is put in WAL mode, where readers never wait for
/// the writer. The file is opened with `SQLITE_OPEN_NOFOLLOW`: a symbolic link where the database should be is
/// refused, never followed. libsqlite3 is loaded by the first connection and unloaded when the last one closes
/// (`CSQLite`); when it cannot be loaded, opening fails with `SQLITE_CANTOPEN` and the loader's reason.
public final class Database {
    let handle: OpaquePointer
    public let path: String

    /// Opens (and with `create`, makes) the database at `path`. `busyTimeoutMilliseconds` is how long a write waits
    /// for another connection's lock before failing with `SQLITE_BUSY`.
    public init(path: String, readOnly: Bool = false, create: Bool = true, busyTimeoutMilliseconds: Int32 = 2000) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        guard quaver_sqlite_load() == 1 else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: String(cString: quaver_sqlite_load_error()))
        }
        var opened: OpaquePointer?
        let code = quaver_sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: quaver_sqlite3_errmsg($0)) } ?? String(cString: quaver_sqlite3_errstr(code))
            quaver_sqlite3_close_v2(opened)
            quaver_sqlite_release()
            throw SQLiteError(code: code, message: message)
        }
        handle = opened
        self.path = path
        quaver_sqlite3_extended_result_codes(handle, 1)
        quaver_sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit {
        quaver_sqlite3_close_v2(handle)
        quaver_sqlite_release()
    }

    /// Whether anything is at `path` (a file, a link, or something `lstat` cannot look at): where nothing is, there
    /// is nothing to read yet, and the file can be made by whoever first writes it, without SQLite running before.
    public static func isMade(at path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 || errno != ENOENT
    }

    /// Runs one or more statements that return no rows (schema, pragmas). Values are never spliced into `sql`:
    /// statements with values go through `run` or `query`, which bind them.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = quaver_sqlite3_exec(handle, sql, nil, nil, &message)
        defer { quaver_sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, message: message.map { String(cString: $0) } ?? lastMessage)
        }
    }

    /// A compiled statement, for running many times with different values.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Runs one statement with `values` bound to its parameters and returns how many rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
        return Int(quaver_sqlite3_changes(handle))
    }

    /// Runs one query with `values` bound and returns every row.
    public func query(_ sql: String, _ values: [SQLiteValue] = []) throws -> [Row] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [Row] = []
        while try statement.step() { rows.append(statement.row) }
        return rows
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`, so a second writer waits at the start, not at the
    /// commit): committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Whether the connection can only read: asked for, or the file cannot be written (`sqlite3_db_readonly`).
    public var isReadOnly: Bool { quaver_sqlite3_db_readonly(handle, "main") == 1 }

    /// The rowid of the last row this connection inserted.
    public var lastInsertRowID: Int64 { quaver_sqlite3_last_insert_rowid(handle) }

    /// The file's schema version (`PRAGMA user_version`; 0 for a new file).
    public var userVersion: Int {
        get throws { try query("PRAGMA user_version").first?.integer(0).map(Int.init) ?? 0 }
    }

    /// Brings the schema up to date: `migrations[i]` takes the file from version `i` to `i + 1`, each in its own
    /// transaction with the version it reaches, so a migration is never half applied. A file newer than the
    /// migrations known here is refused (an older Quaver never writes into a newer schema).
    public func migrate(_ migrations: [String]) throws {
        let version = try userVersion
        guard version <= migrations.count else {
            throw SQLiteError(code: SQLITE_ERROR, message: "schema version \(version) is newer than this program knows (\(migrations.count))")
        }
        for (index, sql) in migrations.enumerated().dropFirst(version) {
            try transaction {
                // Read again under the write lock: another connection may have taken the file there meanwhile
                // (the history's first write and the ListenBrainz sender both open a file not made yet).
                guard try userVersion == index else { return }
                try execute(sql)
                try execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }

    /// Write-ahead logging: readers do not wait for the writer, and a commit is one append. `synchronous=NORMAL`
    /// keeps the database consistent after a crash or power loss, and loses at most the last commits.
    public func useWriteAheadLog() throws {
        try execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")
    }

    /// Gives SQLite's page cache back (`PRAGMA shrink_memory`) after a connection read or wrote much of its file: it
    /// keeps up to 2 MB of the file's pages otherwise, for as long as the connection is open.
    public func releaseCache() throws {
        try execute("PRAGMA shrink_memory")
    }

    /// `PRAGMA quick_check`: true when SQLite finds the file's structure sound.
    public func isIntact() -> Bool {
        (try? query("PRAGMA quick_check").first?.text(0)) == "ok"
    }

    var lastMessage: String { String(cString: quaver_sqlite3_errmsg(handle)) }
}
