// One libpq connection: statements with bound parameters, transactions, typed errors.
import CLibPQ
import Foundation

/// A connection to a PostgreSQL server (a libpq `PGconn`).
///
/// Every statement goes through `PQexecParams`: values are bound parameters, never spliced into
/// the SQL text. Errors name the server and the server's message, never the password.
///
/// - Important: Thread safety: not thread-safe (libpq's rule for one connection); the store's
///   ``PostgreSQLConnectionPool`` hands it to one caller at a time.
// @unchecked Sendable: libpq allows one thread at a time on a connection; the pool hands a
// connection to one caller at a time (its idle list is behind a Mutex), and a connection a
// single test owns is used by that test only, which gives that ordering.
package final class PostgreSQLConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// `host:port/database`, for messages (never the user or the password).
    package let server: String
    /// What the connection was made with: the secrets its messages must not show.
    package let configuration: PostgreSQLConnectionConfiguration

    /// Connects with a connection string and default options.
    ///
    /// - Parameter url: A libpq connection string: a URL
    ///   (`postgresql://user@host:5432/database?sslmode=require`,
    ///   `postgresql:///database?host=/socket/folder`) or `key=value` pairs. Settings it leaves
    ///   out come from libpq's environment variables (`PGHOST`, `PGPASSWORD`…).
    /// - Throws: ``PostgreSQLStoreError/Code/connectionFailed(_:)`` with libpq's message.
    package convenience init(url: String) throws {
        try self.init(configuration: PostgreSQLConnectionConfiguration(url: url))
    }

    /// Connects (libpq's `PQconnectdbParams`: the URL, then the configuration's keywords,
    /// which win), then sets the session's `statement_timeout` when the configuration has one.
    ///
    /// - Parameter configuration: The URL, keywords and timeouts.
    /// - Throws: ``PostgreSQLStoreError/Code/connectionFailed(_:)`` with libpq's message (a
    ///   password in it is masked), naming the server.
    package init(configuration: PostgreSQLConnectionConfiguration) throws {
        self.configuration = configuration
        var parseError: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(configuration.libpqURL, &parseError) else {
            let message = parseError.map { String(cString: $0) } ?? "the connection URL cannot be read"
            if let parseError { PQfreemem(parseError) }
            throw PostgreSQLStoreError(.connectionFailed(configuration.scrubbed(Self.trimmed(message))), server: "(unreadable URL)")
        }
        PQconninfoFree(options)
        let keywords = ["dbname"] + configuration.keywords.map(\.0)
        let values = [configuration.libpqURL] + configuration.keywords.map(\.1)
        let connected = Self.withCStrings(keywords) { keywordPointers in
            Self.withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let handle = connected else {
            throw PostgreSQLStoreError(.connectionFailed("out of memory"), server: "(unknown)")
        }
        let server = Self.describe(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = configuration.scrubbed(Self.trimmed(String(cString: PQerrorMessage(handle))))
            PQfinish(handle)
            throw PostgreSQLStoreError(.connectionFailed(message), server: server)
        }
        // The server's messages outside a statement's result (the FATAL it sends before it
        // ends the connection, a WARNING) would go to the app's standard error through libpq's
        // default notice processor: a lost connection is reported by the error of the call
        // that meets it instead.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        self.handle = handle
        self.server = server
        try execute("SET client_min_messages TO warning")
        if let milliseconds = configuration.statementTimeoutMilliseconds {
            // An integer of ours, not a value from the app; SET takes no parameters.
            try execute("SET statement_timeout TO \(milliseconds)")
        }
    }

    /// Runs `body` with a NULL-terminated array of C strings, valid for the call.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        return body(copies.map { UnsafePointer($0) } + [nil])
    }

    deinit { PQfinish(handle) }

    /// Runs one statement with bound parameters.
    ///
    /// - Parameters:
    ///   - sql: The statement, with `$1`, `$2`… for the parameters.
    ///   - parameters: The values, in order.
    /// - Returns: The result's rows (none for a statement without rows).
    /// - Throws: ``PostgreSQLStoreError`` with the server's message and SQLSTATE, or
    ///   ``PostgreSQLStoreError/Code/unsupported(_:)`` for text holding a NUL character (which
    ///   PostgreSQL text cannot hold).
    @discardableResult
    package func execute(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws -> PostgreSQLRows {
        var buffers: [[CChar]?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        buffers.reserveCapacity(parameters.count)
        for (index, parameter) in parameters.enumerated() {
            switch parameter {
            case .null:
                buffers.append(nil); lengths.append(0); formats.append(0)
            case .text(let text):
                guard !text.utf8.contains(0) else {
                    throw PostgreSQLStoreError(.unsupported("parameter $\(index + 1) holds a NUL character, which PostgreSQL text cannot hold"),
                                               server: server, statement: sql)
                }
                buffers.append(Array(text.utf8CString)); lengths.append(0); formats.append(0)
            case .bytes(let data):
                buffers.append(data.map { CChar(bitPattern: $0) }); lengths.append(Int32(data.count)); formats.append(1)
            }
        }
        let name = try preparedName(of: sql)
        let result = try withPointers(buffers) { pointers in
            if let name {
                return PQexecPrepared(handle, name, Int32(parameters.count), pointers, lengths, formats, 0)
            }
            return PQexecParams(handle, sql, Int32(parameters.count), nil, pointers, lengths, formats, 0)
        }
        return try rows(of: result, sql)
    }

    /// The rows of a result, or its error; clears the result.
    private func rows(of result: OpaquePointer?, _ sql: String) throws -> PostgreSQLRows {
        guard let result else {
            isBroken = true
            throw failure(.connectionLost(configuration.scrubbed(Self.trimmed(String(cString: PQerrorMessage(handle))))), sql)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return PostgreSQLRows(columns: [], rows: [])
        case PGRES_TUPLES_OK:
            return Self.rows(of: result)
        default:
            let message = configuration.scrubbed(PQresultErrorMessage(result).map { Self.trimmed(String(cString: $0)) } ?? "unknown error")
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            if PQstatus(handle) != CONNECTION_OK || Self.meansConnectionLoss(state) {
                isBroken = true
                throw failure(.connectionLost(message), sql)
            }
            if state == "57014" { throw failure(.timedOut(message), sql) }
            throw failure(.statementFailed(message: message, sqlState: state, statement: sql), nil)
        }
    }

    /// Statements run more than once on this connection are prepared (`PQprepare`) on their
    /// second run and executed by name after, so that the server parses and plans a save's
    /// per-row `INSERT` or `UPDATE` once. At most 256 are kept.
    private var prepared: [String: String] = [:]
    /// Statements run once so far (forgotten when 1,024 have gathered).
    private var seenOnce: Set<String> = []

    /// The prepared statement's name for `sql` (preparing it on its second run), or `nil` to
    /// run it unprepared. A statement that fails to prepare throws the server's error, as
    /// running it would.
    private func preparedName(of sql: String) throws -> String? {
        if let name = prepared[sql] { return name }
        guard prepared.count < 256 else { return nil }
        guard seenOnce.contains(sql) else {
            if seenOnce.count >= 1_024 { seenOnce.removeAll() }
            seenOnce.insert(sql)
            return nil
        }
        seenOnce.remove(sql)
        let name = "og_\(prepared.count + 1)"
        _ = try rows(of: PQprepare(handle, name, sql, 0, nil), sql)
        prepared[sql] = name
        return name
    }

    /// Whether the connection failed (lost, or a server shutting down closed it): it is not
    /// handed out again.
    package private(set) var isBroken = false

    /// An error of this connection naming a statement.
    private func failure(_ code: PostgreSQLStoreError.Code, _ statement: String?) -> PostgreSQLStoreError {
        PostgreSQLStoreError(code, server: server, statement: statement)
    }

    /// SQLSTATEs meaning the session is gone: connection exceptions (class 08), the server's
    /// shutdown (`57P01` admin shutdown, `57P02` crash shutdown, `57P03` cannot connect now),
    /// and no SQLSTATE at all: an error libpq made itself ("server closed the connection
    /// unexpectedly"), which it may report before the connection's status turns bad.
    package static func meansConnectionLoss(_ state: String) -> Bool {
        state.isEmpty || state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03"
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// - Parameter body: The transaction's work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (after the rollback), the commit's error, or
    ///   ``PostgreSQLStoreError/Code/commitOutcomeUnknown(_:)`` when the connection was lost
    ///   while the `COMMIT` was under way: the transaction may or may not have been applied,
    ///   and the caller must not simply run it again.
    @discardableResult
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        let value = try begun("BEGIN", body)
        do {
            try execute("COMMIT")
        } catch let error as PostgreSQLStoreError {
            guard case .connectionLost(let message) = error.code else { throw error }
            throw failure(.commitOutcomeUnknown(message), "COMMIT")
        }
        return value
    }

    /// Runs `body` in a read-only `REPEATABLE READ` transaction: its queries see one snapshot
    /// of the data.
    ///
    /// A read changes nothing, so the outcome of its `COMMIT` does not matter: a connection
    /// lost then is reported as ``PostgreSQLStoreError/Code/connectionLost(_:)``, and the pool
    /// runs the read again on a new connection
    /// (``PostgreSQLConnectionPool/withConnection(retrying:_:)``).
    ///
    /// - Parameter body: The transaction's queries.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (after the rollback), or the commit's error.
    package func readOnlyTransaction<T>(_ body: () throws -> T) throws -> T {
        let value = try begun("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", body)
        try execute("COMMIT")
        return value
    }

    /// Starts a transaction with `begin` and runs `body` in it; rolls it back when `body`
    /// throws (the caller commits).
    private func begun<T>(_ begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            return try body()
        } catch {
            if !isBroken && isConnected { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Whether the connection is usable.
    package var isConnected: Bool { !isBroken && PQstatus(handle) == CONNECTION_OK }

    /// Whether the connection is outside any transaction (so it can be handed out again).
    package var isIdle: Bool { PQtransactionStatus(handle) == PQTRANS_IDLE }

    private func withPointers<R>(_ buffers: [[CChar]?], _ body: ([UnsafePointer<CChar>?]) -> R) throws -> R {
        // Copies live for the call: each buffer is pinned in turn, recursively.
        var pointers: [UnsafePointer<CChar>?] = []
        pointers.reserveCapacity(buffers.count)
        func pin(_ index: Int) -> R {
            if index == buffers.count { return body(pointers) }
            guard let buffer = buffers[index] else {
                pointers.append(nil)
                return pin(index + 1)
            }
            return buffer.withUnsafeBufferPointer { pointer in
                pointers.append(pointer.baseAddress ?? UnsafePointer(bitPattern: 1))
                return pin(index + 1)
            }
        }
        return pin(0)
    }

    private static func rows(of result: OpaquePointer) -> PostgreSQLRows {
        let columnCount = PQnfields(result)
        let rowCount = PQntuples(result)
        var columns: [String] = []
        for column in 0..<columnCount { columns.append(String(cString: PQfname(result, column))) }
        var rows: [[String?]] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                values.append(PQgetisnull(result, row, column) != 0 ? nil : String(cString: PQgetvalue(result, row, column)))
            }
            rows.append(values)
        }
        return PostgreSQLRows(columns: columns, rows: rows)
    }

    /// `host:port/database` of a connection (a socket folder counts as the host).
    private static func describe(_ handle: OpaquePointer) -> String {
        let host = PQhost(handle).map { String(cString: $0) } ?? ""
        let port = PQport(handle).map { String(cString: $0) } ?? ""
        let database = PQdb(handle).map { String(cString: $0) } ?? ""
        return (host.isEmpty ? "localhost" : host) + (port.isEmpty ? "" : ":" + port) + "/" + database
    }

    private static func trimmed(_ message: String) -> String {
        message.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
