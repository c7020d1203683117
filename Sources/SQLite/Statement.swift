import CSQLite

/// A value bound to a statement's parameter or read from a row.
public enum SQLiteValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// One compiled statement (`sqlite3_prepare_v2`), finalized (`sqlite3_finalize`) in deinit. It keeps its
/// `Database` alive, so the connection is never closed under it.
public final class Statement {
    private let database: Database
    private let handle: OpaquePointer

    init(database: Database, sql: String) throws {
        var prepared: OpaquePointer?
        let code = quaver_sqlite3_prepare_v2(database.handle, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            throw SQLiteError(code: code, message: database.lastMessage)
        }
        self.database = database
        handle = prepared
    }

    deinit { quaver_sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to its parameters `?1`, `?2`, … in order.
    public func bind(_ values: [SQLiteValue]) throws {
        quaver_sqlite3_reset(handle)
        quaver_sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = quaver_sqlite3_bind_null(handle, index)
            case .integer(let number): code = quaver_sqlite3_bind_int64(handle, index, number)
            case .real(let number): code = quaver_sqlite3_bind_double(handle, index, number)
            case .text(let text):
                // The length is given, so a NUL inside the text is kept rather than ending it.
                var utf8 = Array(text.utf8)
                if utf8.isEmpty { utf8 = [0] }
                code = utf8.withUnsafeBufferPointer {
                    quaver_sqlite3_bind_text(handle, index, $0.baseAddress, Int32(text.utf8.count), csqlite_transient())
                }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes {
                    quaver_sqlite3_bind_blob(handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count),
                                      csqlite_transient())
                }
            }
            guard code == SQLITE_OK else { throw SQLiteError(code: code, message: database.lastMessage) }
        }
    }

    /// Steps once: true while a row is there to read (`row`), false when the statement is done.
    public func step() throws -> Bool {
        switch quaver_sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let error = SQLiteError(code: code, message: database.lastMessage)
            quaver_sqlite3_reset(handle)
            throw error
        }
    }

    /// Binds `values`, steps to the end and returns the rows.
    public func rows(_ values: [SQLiteValue] = []) throws -> [Row] {
        try bind(values)
        var rows: [Row] = []
        while try step() { rows.append(row) }
        return rows
    }

    /// Binds `values` and runs the statement to its end (for writes).
    public func run(_ values: [SQLiteValue] = []) throws {
        try bind(values)
        while try step() {}
    }

    /// The current row's columns, copied out of SQLite.
    public var row: Row {
        Row(values: (0..<quaver_sqlite3_column_count(handle)).map(column))
    }

    private func column(_ index: Int32) -> SQLiteValue {
        switch quaver_sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(quaver_sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(quaver_sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            let count = Int(quaver_sqlite3_column_bytes(handle, index))
            guard let bytes = quaver_sqlite3_column_text(handle, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(quaver_sqlite3_column_bytes(handle, index))
            guard let bytes = quaver_sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}

/// One row of a result, by column position.
public struct Row: Equatable, Sendable {
    public let values: [SQLiteValue]

    public init(values: [SQLiteValue]) { self.values = values }

    public func integer(_ column: Int) -> Int64? {
        guard values.indices.contains(column) else { return nil }
        switch values[column] {
        case .integer(let number): return number
        case .real(let number): return Int64(exactly: number.rounded())
        default: return nil
        }
    }

    public func real(_ column: Int) -> Double? {
        guard values.indices.contains(column) else { return nil }
        switch values[column] {
        case .real(let number): return number
        case .integer(let number): return Double(number)
        default: return nil
        }
    }

    public func text(_ column: Int) -> String? {
        guard values.indices.contains(column), case .text(let text) = values[column] else { return nil }
        return text
    }

    public func blob(_ column: Int) -> [UInt8]? {
        guard values.indices.contains(column), case .blob(let bytes) = values[column] else { return nil }
        return bytes
    }
}
