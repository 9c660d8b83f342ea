// One connection to an SQLite file: open, pragmas, cached statements, transactions.
import CSQLite
import Foundation

/// A connection to one SQLite database file.
///
/// Statements are prepared once per SQL text and cached. Errors are thrown as
/// ``SQLiteStoreError`` naming the file, the SQL and SQLite's message; no input crashes.
///
/// - Important: Thread safety: not `Sendable`. The store keeps its connection behind a lock
///   and uses it from one thread at a time (the handle is opened with `SQLITE_OPEN_NOMUTEX`).
package final class SQLiteConnection {
    /// How to open the file.
    package enum Mode: Sendable {
        /// Read and write; create the file when missing.
        case create
        /// Read and write an existing file.
        case readWrite
        /// Read only.
        case readOnly
    }

    private let handle: OpaquePointer
    /// The file's path, for errors.
    package let path: String
    private var statements: [String: SQLiteStatement] = [:]
    private var transactionDepth = 0
    /// What `og_unknown_entity` met, for the failing statement's error.
    private let unknownEntitySighting = UnknownEntitySighting()

    /// Opens a database file.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - mode: How to open it.
    ///   - busyTimeout: How long to wait for another connection's lock, in milliseconds.
    ///   - uri: Whether `path` is an SQLite `file:` URI (with `mode=ro`, `immutable=1`…).
    /// - Throws: ``SQLiteStoreError`` when SQLite cannot open the file.
    package init(path: String, mode: Mode, busyTimeout: Int32 = 5000, uri: Bool = false) throws {
        var flags = SQLITE_OPEN_NOMUTEX | (uri ? SQLITE_OPEN_URI : 0)
        switch mode {
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
                ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(opened)
            throw SQLiteStoreError(.sqlite(resultCode: code, message: message), path: path)
        }
        handle = opened
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeout)
        registerPredicateFunctions(handle)
        registerUnknownEntityFunction(handle, sighting: unknownEntitySighting)
    }

    /// The name of the collation that orders text as Swift's `String` does (canonical
    /// equivalence, Unicode scalar order), the order of predicates without string options.
    package static let swiftCollation = "OG_SWIFT"

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// An error with SQLite's current message for `code`; for a statement that
    /// `og_unknown_entity` failed, ``SQLiteStoreError/Code/unknownEntityNumber(table:number:)``.
    package func lastError(code: Int32, sql: String?) -> SQLiteStoreError {
        if let sighting = unknownEntitySighting.take() {
            return SQLiteStoreError(.unknownEntityNumber(table: sighting.table, number: sighting.number), path: path)
        }
        let message = sqlite3_errmsg(handle).map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        return SQLiteStoreError(.sqlite(resultCode: code, message: message), path: path, sql: sql)
    }

    /// An error about this connection's file.
    package func error(_ code: SQLiteStoreError.Code, sql: String? = nil) -> SQLiteStoreError {
        SQLiteStoreError(code, path: path, sql: sql)
    }

    /// The cached statement for `sql`, prepared on first use.
    ///
    /// - Throws: ``SQLiteStoreError`` when the SQL does not compile.
    package func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw lastError(code: code, sql: sql)
        }
        let statement = SQLiteStatement(handle: prepared, sql: sql, connection: self)
        statements[sql] = statement
        return statement
    }

    /// Runs one or more statements without parameters (schema, pragmas), uncached.
    ///
    /// - Throws: ``SQLiteStoreError``.
    package func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteStoreError(.sqlite(resultCode: code, message: text), path: path, sql: sql)
        }
    }

    /// The rows of a query (cached statement).
    package func rows(_ sql: String, _ values: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        try statement(sql).rows(values)
    }

    /// Runs a statement (cached), ignoring any rows.
    package func run(_ sql: String, _ values: [SQLiteValue] = []) throws {
        try statement(sql).run(values)
    }

    /// The first column of the first row of a query, or `nil` without rows.
    package func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws -> SQLiteValue? {
        try rows(sql, values).first?.first
    }

    /// Throws ``SQLiteStoreError/Code/fileReplaced`` when the file at ``path`` is no longer
    /// the one this connection opened: renamed over, deleted and made again, or deleted
    /// (SQLite's `SQLITE_FCNTL_HAS_MOVED`: one `stat` of the path, its inode compared with the
    /// open file's). Writing then would go to the unlinked old file and be lost.
    package func checkFileInPlace() throws {
        var moved: Int32 = 0
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK, moved != 0 else { return }
        throw error(.fileReplaced)
    }

    /// The first `count` bytes of the database file (fewer when the file is shorter), read
    /// through SQLite's own handle of the file (`SQLITE_FCNTL_FILE_POINTER`), without a lock.
    ///
    /// The file must never be opened and closed beside SQLite while this process may have it
    /// open: on POSIX, closing any descriptor of a file drops every lock the process holds
    /// on it, those of this process's other SQLite connections included (SQLite's own handles
    /// of one file share their locks and close late, so they are safe).
    ///
    /// - Throws: ``SQLiteStoreError`` when the file cannot be read.
    package func fileHeader(count: Int) throws -> [UInt8] {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK, let file,
              let methods = file.pointee.pMethods, let fileSize = methods.pointee.xFileSize, let read = methods.pointee.xRead else {
            throw error(.sqlite(resultCode: SQLITE_IOERR, message: "the database file is not open"))
        }
        var size: sqlite3_int64 = 0
        var code = fileSize(file, &size)
        guard code == SQLITE_OK else { throw error(.sqlite(resultCode: code, message: String(cString: sqlite3_errstr(code)))) }
        var bytes = [UInt8](repeating: 0, count: Int(min(Int64(count), max(size, 0))))
        guard !bytes.isEmpty else { return [] }
        code = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, Int32($0.count), 0) }
        guard code == SQLITE_OK else { throw error(.sqlite(resultCode: code, message: String(cString: sqlite3_errstr(code)))) }
        return bytes
    }

    /// Whether a transaction is open (SQLite ends one by itself after some failures, such as
    /// a full disk).
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// Nested calls join the outer transaction.
    ///
    /// - Parameters:
    ///   - immediate: Take the write lock at the start (`BEGIN IMMEDIATE`), so that reads
    ///     made to check versions stay true until the commit.
    ///   - body: The work.
    /// - Returns: What `body` returns.
    /// - Throws: ``SQLiteStoreError/Code/fileReplaced`` when the path no longer names the file
    ///   this connection opened (before a write transaction: one `stat` of the path);
    ///   `body`'s error, or ``SQLiteStoreError`` from BEGIN or COMMIT.
    package func transaction<Result>(immediate: Bool = true, _ body: () throws -> Result) throws -> Result {
        if transactionDepth > 0 {
            return try body()
        }
        if immediate { try checkFileInPlace() }
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }
}

/// Connections and statements belong to one owner at a time.
@available(*, unavailable)
extension SQLiteConnection: Sendable {}

@available(*, unavailable)
extension SQLiteStatement: Sendable {}
