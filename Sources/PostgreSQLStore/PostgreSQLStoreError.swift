// The PostgreSQL store's errors: what failed, the server's message, never a password.
import Foundation

/// An error of the PostgreSQL store or its connection.
///
/// Messages name the server (host and database, never the password) and, for a failed
/// statement, the server's message, its SQLSTATE code and the statement's text (values travel
/// as bound parameters, so the text holds none of them).
///
/// - Important: Thread safety: a `Sendable` value.
public struct PostgreSQLStoreError: Error, Sendable, Hashable {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The connection could not be made (bad URL, no server, refused login).
        case connectionFailed(String)
        /// The server refused a statement: its message and SQLSTATE (`"23505"`…).
        case statementFailed(message: String, sqlState: String, statement: String)
        /// The connection was lost.
        case connectionLost(String)
        /// The database holds objects of another model: the entities whose version hashes
        /// differ.
        case incompatibleModel([String])
        /// The store was used before ``PostgreSQLPersistentStore/load(for:)``, or with a value
        /// it cannot keep (a string with a NUL character, a value of the wrong type).
        case unsupported(String)
    }

    /// What went wrong.
    public var code: Code
    /// The server and database, as `host/database` (never the user's password).
    public var server: String

    /// Creates an error.
    public init(_ code: Code, server: String) {
        self.code = code
        self.server = server
    }

    /// The SQLSTATE of a failed statement, or `nil`.
    public var sqlState: String? {
        if case .statementFailed(_, let state, _) = code { return state }
        return nil
    }
}

extension PostgreSQLStoreError: LocalizedError, CustomStringConvertible {
    /// A sentence naming the server and the problem.
    public var description: String {
        switch code {
        case .connectionFailed(let message):
            return "cannot connect to the PostgreSQL server \(server): \(message)"
        case .statementFailed(let message, let state, let statement):
            return "the PostgreSQL server \(server) refused a statement (SQLSTATE \(state)): \(message) — in: \(statement)"
        case .connectionLost(let message):
            return "the connection to the PostgreSQL server \(server) was lost: \(message)"
        case .incompatibleModel(let entities):
            return "the PostgreSQL store \(server) holds objects of another model (entities differing: \(entities.joined(separator: ", ")))"
        case .unsupported(let message):
            return "the PostgreSQL store \(server) cannot do this: \(message)"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
