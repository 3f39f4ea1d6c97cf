import CSQLite

/// A failure reported by SQLite: its result code and message.
struct SQLiteFailure: Error {
    var code: Int32
    var message: String

    /// True for the codes that mean the file's bytes are bad rather than our SQL.
    var meansDamage: Bool {
        let primary = code & 0xFF
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_IOERR
            || primary == SQLITE_FORMAT
    }
}

/// A read-only SQLite connection. Not thread-safe: opened with `SQLITE_OPEN_NOMUTEX`, so its
/// owner must serialize every use (MBTilesSource holds it inside a mutex).
final class SQLiteConnection {
    private let handle: OpaquePointer

    /// Opens `path` read-only; fails if SQLite cannot open it at all.
    init(readOnlyPath path: String) throws(SQLiteFailure) {
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SQLiteFailure(code: code, message: message)
        }
        handle = db
        // Extended codes name the kind of damage (SQLITE_CORRUPT_INDEX, SQLITE_IOERR_SHORT_READ…).
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Compiles `sql`; fails with SQLite's message (e.g. "no such table: tiles").
    func prepare(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw failure(code)
        }
        return SQLiteStatement(handle: statement, connection: self)
    }

    /// The failure for `code`, with the connection's current message.
    func failure(_ code: Int32) -> SQLiteFailure {
        SQLiteFailure(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A compiled statement; finalized when released.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Clears bindings and rewinds, ready for the next `step`.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ value: Int64, at index: Int32) throws(SQLiteFailure) {
        let code = sqlite3_bind_int64(handle, index, value)
        guard code == SQLITE_OK else { throw connection.failure(code) }
    }

    /// Advances to the next row: true when a row is ready, false when done.
    func step() throws(SQLiteFailure) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.failure(code)
        }
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The column as text (SQLite converts numbers), nil for NULL.
    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's bytes (text or blob), empty for NULL.
    func bytes(_ column: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

/// SQLite result codes the callers test for, without importing CSQLite everywhere.
enum SQLiteCodes {
    static let notADatabase = SQLITE_NOTADB
}
