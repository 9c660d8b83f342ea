// The PostgreSQL store's errors: what failed, the server's message, never a password.
import Foundation

/// An error of the PostgreSQL store or its connection.
///
/// Messages name the server (host, port and database, never the user's password: a password
/// libpq's message would show is masked) and, for a failed, cancelled or interrupted
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
        /// The connection was lost (the server stopped or restarted, the network failed): the
        /// statement's transaction was not applied. The store retries a call that is safe to
        /// retry once on a new connection before throwing this.
        case connectionLost(String)
        /// The connection was lost while a `COMMIT` was under way: the save may or may not
        /// have been applied. Never retried; refetch to find out.
        case commitOutcomeUnknown(String)
        /// The server cancelled a statement that ran longer than the `statement_timeout`
        /// (``PostgreSQLStoreOptions/statementTimeout``): its transaction was rolled back.
        case timedOut(String)
        /// The database holds objects of another model: the entities whose version hashes
        /// differ.
        case incompatibleModel([String])
        /// The store was used before ``PostgreSQLPersistentStore/load(for:)``, or with a value
        /// it cannot keep (a string with a NUL character, a value of the wrong type).
        case unsupported(String)
    }

    /// What went wrong.
    public var code: Code
    /// The server and database, as `host:port/database` (never the user's password).
    public var server: String
    /// The statement under way (for a lost connection, a timeout), or `nil`.
    public var statement: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - server: `host:port/database`.
    ///   - statement: The statement under way, if any.
    public init(_ code: Code, server: String, statement: String? = nil) {
        self.code = code
        self.server = server
        self.statement = statement
    }

    /// Whether the connection failed or was lost (including during a commit): the server is
    /// unreachable or stopped, rather than refusing a statement.
    public var isConnectionFailure: Bool {
        switch code {
        case .connectionFailed, .connectionLost, .commitOutcomeUnknown: return true
        default: return false
        }
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
        let statementText = statement.map { " — in: \($0)" } ?? ""
        switch code {
        case .connectionFailed(let message):
            return "cannot connect to the PostgreSQL server \(server): \(message)"
        case .statementFailed(let message, let state, let statement):
            return "the PostgreSQL server \(server) refused a statement (SQLSTATE \(state)): \(message) — in: \(statement)"
        case .connectionLost(let message):
            return "the connection to the PostgreSQL server \(server) was lost: \(message)" + statementText
        case .commitOutcomeUnknown(let message):
            return "the connection to the PostgreSQL server \(server) was lost during a COMMIT, which may or may not have been applied: \(message)"
        case .timedOut(let message):
            return "the PostgreSQL server \(server) cancelled a statement that ran past the statement timeout: \(message)" + statementText
        case .incompatibleModel(let entities):
            return "the PostgreSQL store \(server) holds objects of another model (entities differing: \(entities.joined(separator: ", ")))"
        case .unsupported(let message):
            return "the PostgreSQL store \(server) cannot do this: \(message)" + statementText
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
