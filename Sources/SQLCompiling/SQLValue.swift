// A value bound to an SQL statement's parameter, before a database spells it.
import Foundation

/// A value a compiled condition binds to one parameter (`?`): never spliced into SQL text.
///
/// Each store turns it into its own binding: SQLite stores Booleans as integers and UUIDs as
/// 16-byte blobs (its dialect's ``SQLPredicateRules/comparable(_:for:)`` already produces
/// those), PostgreSQL sends text with a cast naming the type (`$3::uuid`).
///
/// - Important: Thread safety: a `Sendable` value.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case boolean(Bool)
    case uuid(UUID)

    /// The PostgreSQL type a placeholder of this value is cast to (`nil` for `NULL`, whose
    /// type the server infers).
    package var postgreSQLType: String? {
        switch self {
        case .null: return nil
        case .integer: return "bigint"
        case .real: return "double precision"
        case .text: return "text"
        case .blob: return "bytea"
        case .boolean: return "boolean"
        case .uuid: return "uuid"
        }
    }
}

/// A piece of SQL with the values of its placeholders, in the order they appear.
package struct SQLFragment: Sendable, Hashable {
    package var sql: String
    package var arguments: [SQLValue]

    package init(_ sql: String, _ arguments: [SQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

/// An SQL condition with its arguments, and whether it decides exactly what the in-memory
/// evaluation decides (otherwise it selects a superset of the matching rows).
package struct SQLCondition: Sendable {
    package var sql: String
    package var arguments: [SQLValue]
    package var isExact: Bool

    package init(sql: String, arguments: [SQLValue], isExact: Bool) {
        self.sql = sql
        self.arguments = arguments
        self.isExact = isExact
    }
}
