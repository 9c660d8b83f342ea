// The one error type of the SQLite store: what went wrong, in which file, on which SQL.
import Foundation
import ManagedObjects

/// An error of the SQLite store: SQLite's own failures, files that are not stores, stores
/// written by an incompatible model, values that cannot be stored.
///
/// Every error names the store file; errors from SQLite also carry the SQL statement and
/// SQLite's message.
///
/// - Important: Thread safety: a `Sendable` value.
public struct SQLiteStoreError: Error, Sendable, Hashable {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// SQLite refused an operation: its result code and message.
        case sqlite(resultCode: Int32, message: String)
        /// The file is not an SQLite database (or is empty).
        case notADatabase(String)
        /// The file is an SQLite database but not a store in Core Data's layout (tables or
        /// metadata missing or unreadable).
        case notAStore(String)
        /// The store was written by a model whose version hashes differ from the model's
        /// (Apple: `NSPersistentStoreIncompatibleVersionHashError`).
        case incompatibleModel(String)
        /// The model has something the store cannot lay out yet, or a value cannot be stored.
        case unsupported(String)
        /// The store was used before ``SQLitePersistentStore/load(for:)`` succeeded.
        case notLoaded
        /// A save would give two objects of an entity equal values for a uniqueness constraint
        /// (the store's unique index refused the row; Apple: an `NSConstraintConflict`).
        case uniquenessConstraint(objectID: ManagedObjectID, properties: [String])
        /// Rows of `table` have an entity number (`Z_ENT`) that names no entity of the model
        /// the store was opened with (written by another program or another model); a fetch
        /// or lookup that reads the table refuses to skip them silently.
        case unknownEntityNumber(table: String, number: Int64)
        /// The store file was renamed over, replaced or deleted while the store had it open:
        /// the path names another file now, or none. A save is refused (it would go to the old
        /// file, which nothing can open any more, and be lost); open the store again.
        case fileReplaced
    }

    /// What went wrong.
    public var code: Code
    /// The store file's path.
    public var path: String
    /// The SQL statement that failed, when SQLite failed.
    public var sql: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - path: The store file's path.
    ///   - sql: The SQL statement that failed, if any.
    public init(_ code: Code, path: String, sql: String? = nil) {
        self.code = code
        self.path = path
        self.sql = sql
    }
}

extension SQLiteStoreError: LocalizedError, CustomStringConvertible {
    /// A sentence naming the file, the problem and, for SQLite's errors, the SQL.
    public var description: String {
        let problem: String
        switch code {
        case .sqlite(let resultCode, let message):
            problem = "SQLite error \(resultCode): \(message)"
        case .notADatabase(let why):
            problem = "not an SQLite database (\(why))"
        case .notAStore(let why):
            problem = "not a store in Core Data's SQLite layout (\(why))"
        case .incompatibleModel(let why):
            problem = "the store was written by an incompatible model (\(why))"
        case .unsupported(let what):
            problem = "unsupported: \(what)"
        case .notLoaded:
            problem = "the store is not loaded (call load(for:) first, or add it to a coordinator)"
        case .uniquenessConstraint(let id, let properties):
            problem = "\(id) has the same \(properties.joined(separator: ", ")) as another \(id.entityName) (a uniqueness constraint)"
        case .unknownEntityNumber(let table, let number):
            problem = "table \(table) has rows of entity number \(number) (Z_ENT), which is no entity of the model"
        case .fileReplaced:
            problem = "the file was replaced, moved or deleted while the store had it open; nothing was written "
                + "(a write would go to the old file, which nothing can open any more): open the store again"
        }
        var text = "SQLite store \(path): \(problem)"
        if let sql { text += " in SQL: \(sql)" }
        return text
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension SQLiteStoreError: StoreLocatedError {
    package func relocated(from temporaryPath: String, to path: String) -> SQLiteStoreError {
        var copy = self
        if copy.path == temporaryPath { copy.path = path }
        return copy
    }
}
