import CSQLite

/// A failed SQLite call: its (extended) result code and SQLite's message.
public struct SQLiteError: Error, CustomStringConvertible, Equatable {
    public let code: Int32
    public let message: String

    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// A file opened to be written that SQLite could only open read-only.
    public static let readOnlyFile = SQLiteError(code: SQLITE_READONLY, message: "the file cannot be written")

    public var description: String { "\(message) (SQLite code \(code))" }

    /// The primary result code (the low byte of the extended one).
    var primary: Int32 { code & 0xff }

    /// The file is not a database, or its structure is damaged: what can be rebuilt should be.
    public var isCorrupt: Bool { primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB }
    /// Another connection holds the lock longer than the busy timeout.
    public var isBusy: Bool { primary == SQLITE_BUSY || primary == SQLITE_LOCKED }
    /// The disk (or the quota) is full.
    public var isFull: Bool { primary == SQLITE_FULL }
    /// The file or its folder cannot be written.
    public var isReadOnly: Bool { primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN || primary == SQLITE_PERM }
}
