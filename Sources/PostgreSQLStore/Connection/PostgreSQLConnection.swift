// One libpq connection: statements with bound parameters, transactions, typed errors.
import CLibPQ
import Foundation

/// A connection to a PostgreSQL server (a libpq `PGconn`).
///
/// Every statement goes through `PQexecParams`: values are bound parameters, never spliced into
/// the SQL text. Errors name the server and the server's message, never the password.
///
/// - Important: Thread safety: not thread-safe (libpq's rule for one connection); the store
///   keeps it behind a `Mutex`.
// @unchecked Sendable: libpq allows one thread at a time on a connection; every use is under the
// store's Mutex (or on a connection a single test owns), which gives that ordering.
package final class PostgreSQLConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// `host/database`, for messages.
    package let server: String

    /// Connects.
    ///
    /// - Parameter url: A libpq connection string: a URL
    ///   (`postgresql://user@host:5432/database?sslmode=require`,
    ///   `postgresql:///database?host=/socket/folder`) or `key=value` pairs. Settings it leaves
    ///   out come from libpq's environment variables (`PGHOST`, `PGPASSWORD`…).
    /// - Throws: ``PostgreSQLStoreError/Code/connectionFailed(_:)`` with libpq's message.
    package init(url: String) throws {
        var options: UnsafeMutablePointer<PQconninfoOption>?
        var parseError: UnsafeMutablePointer<CChar>?
        options = PQconninfoParse(url, &parseError)
        guard let options else {
            let message = parseError.map { String(cString: $0) } ?? "the connection URL cannot be read"
            if let parseError { PQfreemem(parseError) }
            throw PostgreSQLStoreError(.connectionFailed(Self.trimmed(message)), server: "(unreadable URL)")
        }
        PQconninfoFree(options)
        guard let handle = PQconnectdb(url) else {
            throw PostgreSQLStoreError(.connectionFailed("out of memory"), server: "(unknown)")
        }
        let server = Self.describe(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.trimmed(String(cString: PQerrorMessage(handle)))
            PQfinish(handle)
            throw PostgreSQLStoreError(.connectionFailed(message), server: server)
        }
        self.handle = handle
        self.server = server
        _ = try execute("SET client_min_messages TO warning")
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
                    throw PostgreSQLStoreError(.unsupported("parameter $\(index + 1) holds a NUL character, which PostgreSQL text cannot hold"), server: server)
                }
                buffers.append(Array(text.utf8CString)); lengths.append(0); formats.append(0)
            case .bytes(let data):
                buffers.append(data.map { CChar(bitPattern: $0) }); lengths.append(Int32(data.count)); formats.append(1)
            }
        }
        let result = try withPointers(buffers) { pointers in
            PQexecParams(handle, sql, Int32(parameters.count), nil, pointers, lengths, formats, 0)
        }
        guard let result else {
            throw PostgreSQLStoreError(.connectionLost(Self.trimmed(String(cString: PQerrorMessage(handle)))), server: server)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return PostgreSQLRows(columns: [], rows: [])
        case PGRES_TUPLES_OK:
            return Self.rows(of: result)
        default:
            let message = PQresultErrorMessage(result).map { Self.trimmed(String(cString: $0)) } ?? "unknown error"
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            if PQstatus(handle) != CONNECTION_OK {
                throw PostgreSQLStoreError(.connectionLost(message), server: server)
            }
            throw PostgreSQLStoreError(.statementFailed(message: message, sqlState: state, statement: sql), server: server)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// - Parameter body: The transaction's work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (after the rollback), or the commit's error.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// Whether the connection is usable.
    package var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

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

    /// `host/database` of a connection (a socket folder counts as the host).
    private static func describe(_ handle: OpaquePointer) -> String {
        let host = PQhost(handle).map { String(cString: $0) } ?? "localhost"
        let database = PQdb(handle).map { String(cString: $0) } ?? ""
        return host + "/" + database
    }

    private static func trimmed(_ message: String) -> String {
        message.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
