// One prepared statement: bind values, step through rows, read columns.
import CSQLite
import Foundation

/// A prepared SQL statement of one connection. Cached by the connection and reused: each
/// use resets it and clears its bindings first.
///
/// - Important: Thread safety: not `Sendable`; used only by its connection's owner.
package final class SQLiteStatement {
    let handle: OpaquePointer
    package let sql: String
    unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, sql: String, connection: SQLiteConnection) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to its parameters, in order.
    ///
    /// - Throws: ``SQLiteStoreError`` when a value cannot be bound (too many values…).
    package func bind(_ values: [SQLiteValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw connection.error(.unsupported("\(values.count) values for \(expected) parameters"), sql: sql)
        }
        for (offset, value) in values.enumerated() { try bind(value, at: offset + 1) }
    }

    /// Binds one value to the parameter at `index` (1-based), keeping the other bindings:
    /// for a statement run many times with values bound one by one (``start()``, binds,
    /// ``runBound()``), without an array of values per run.
    ///
    /// - Throws: ``SQLiteStoreError`` when the value cannot be bound (an index out of range…).
    package func bind(_ value: SQLiteValue, at index: Int) throws {
        let index = Int32(index)
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            // The byte count keeps text with NUL characters whole.
            code = sqlite3_bind_text64(handle, index, text, sqlite3_uint64(text.utf8.count), csqlite_transient(),
                                       UInt8(SQLITE_UTF8))
        case .blob(let data):
            code = data.withUnsafeBytes { bytes in
                // A zero-length blob needs a non-null pointer, or SQLite binds NULL.
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_zeroblob(handle, index, 0)
                }
                return sqlite3_bind_blob64(handle, index, base, sqlite3_uint64(bytes.count), csqlite_transient())
            }
        }
        guard code == SQLITE_OK else { throw connection.lastError(code: code, sql: sql) }
    }

    /// Binds an integer to the parameter at `index` (1-based), without a ``SQLiteValue``.
    ///
    /// - Throws: ``SQLiteStoreError`` (an index out of range…).
    package func bind(integer: Int64, at index: Int) throws {
        let code = sqlite3_bind_int64(handle, Int32(index), integer)
        guard code == SQLITE_OK else { throw connection.lastError(code: code, sql: sql) }
    }

    /// Binds a double to the parameter at `index` (1-based), without a ``SQLiteValue``.
    ///
    /// - Throws: ``SQLiteStoreError`` (an index out of range…).
    package func bind(real: Double, at index: Int) throws {
        let code = sqlite3_bind_double(handle, Int32(index), real)
        guard code == SQLITE_OK else { throw connection.lastError(code: code, sql: sql) }
    }

    /// Binds text to the parameter at `index` (1-based), without a ``SQLiteValue``.
    ///
    /// - Throws: ``SQLiteStoreError`` (an index out of range…).
    package func bind(text: String, at index: Int) throws {
        var text = text
        // The string's own UTF-8 bytes (no C-string copy); the byte count keeps text with NUL
        // characters whole. Empty text needs a non-null pointer, or SQLite binds NULL.
        let code = text.withUTF8 { bytes -> Int32 in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text64(handle, Int32(index), "", 0, csqlite_transient(), UInt8(SQLITE_UTF8))
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
                sqlite3_bind_text64(handle, Int32(index), characters, sqlite3_uint64(bytes.count), csqlite_transient(),
                                    UInt8(SQLITE_UTF8))
            }
        }
        guard code == SQLITE_OK else { throw connection.lastError(code: code, sql: sql) }
    }

    /// Binds NULL to the parameter at `index` (1-based).
    ///
    /// - Throws: ``SQLiteStoreError`` (an index out of range…).
    package func bindNull(at index: Int) throws {
        let code = sqlite3_bind_null(handle, Int32(index))
        guard code == SQLITE_OK else { throw connection.lastError(code: code, sql: sql) }
    }

    /// Ends the last run so that values can be bound for the next (the bindings stay until
    /// each is bound again).
    package func start() { sqlite3_reset(handle) }

    /// Runs the statement with the values bound since ``start()``, ignoring any rows.
    ///
    /// - Throws: ``SQLiteStoreError``.
    package func runBound() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs the statement with the values bound since ``start()`` and returns how many rows it
    /// inserted, changed or deleted (SQLite's `sqlite3_changes`; rows changed by triggers are
    /// not counted).
    ///
    /// - Throws: ``SQLiteStoreError``.
    package func runBoundCountingChanges() throws -> Int {
        defer { sqlite3_reset(handle) }
        while try step() {}
        return Int(sqlite3_changes(sqlite3_db_handle(handle)))
    }

    /// Advances to the next row.
    ///
    /// - Returns: `true` when a row is available, `false` when the statement is done.
    /// - Throws: ``SQLiteStoreError`` with SQLite's message.
    package func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.lastError(code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// The number of columns of the result.
    package var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of a result column.
    package func columnName(_ index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The value of a column of the current row.
    package func value(at index: Int) -> SQLiteValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, column))
            let buffer = UnsafeBufferPointer(start: text, count: count)
            return .text(String(decoding: buffer, as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let bytes = sqlite3_column_blob(handle, column), count > 0 else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }

    /// A column of the current row as an integer (0 for NULL), without a `SQLiteValue`.
    package func integer(at index: Int) -> Int64 { sqlite3_column_int64(handle, Int32(index)) }

    /// Ends the current run (keeps the bindings until the next ``bind(_:)``).
    package func reset() { sqlite3_reset(handle) }

    /// The values of the current row.
    package func row() -> [SQLiteValue] {
        (0..<columnCount).map(value(at:))
    }

    /// Runs the statement with `values` and collects every row.
    ///
    /// - Throws: ``SQLiteStoreError``.
    package func rows(_ values: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        try bind(values)
        defer { sqlite3_reset(handle) }
        var result: [[SQLiteValue]] = []
        while try step() { result.append(row()) }
        return result
    }

    /// Runs the statement with `values`, ignoring any rows.
    ///
    /// - Throws: ``SQLiteStoreError``.
    package func run(_ values: [SQLiteValue] = []) throws {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }
}
