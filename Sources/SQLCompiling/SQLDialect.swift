// What differs between SQL databases in the statements a store writes: quoting, parameters,
// column types. One dialect value per database, so that SQL generation can be shared.
import Foundation
import ManagedObjects

/// The spelling of SQL for one database: identifier quoting, parameter placeholders and the
/// column type of each attribute type.
///
/// The PostgreSQL store generates every statement through it, so that a later shared SQL
/// compiler (issue 19) can serve SQLite with another value.
///
/// - Important: Thread safety: a `Sendable` value.
package struct SQLDialect: Sendable {
    /// The database's name, for messages.
    package var name: String
    /// The placeholder of the parameter at a 1-based position, with its type when the
    /// database wants one (`$3::bigint`).
    package var placeholder: @Sendable (_ position: Int, _ type: String?) -> String
    /// The column type of an attribute type.
    package var columnType: @Sendable (AttributeDescription.AttributeType) -> String

    /// An identifier in double quotes, inner quotes doubled (standard SQL), so that any name
    /// is one identifier and keeps its case.
    ///
    /// - Complexity: O(*n*) in the name's length.
    package func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// PostgreSQL: `$n::type` placeholders; exact numeric types for decimals, `uuid` and
    /// `bytea`; dates as seconds since 2001-01-01 (Core Data's reference date) in
    /// `double precision`.
    package static let postgreSQL = SQLDialect(
        name: "PostgreSQL",
        placeholder: { position, type in type.map { "$\(position)::\($0)" } ?? "$\(position)" },
        columnType: { type in
            switch type {
            case .integer16: return "smallint"
            case .integer32: return "integer"
            case .integer64: return "bigint"
            case .decimal: return "numeric"
            case .double, .float, .date: return "double precision"
            case .boolean: return "boolean"
            case .string, .uri: return "text"
            case .uuid: return "uuid"
            case .binaryData, .transformable, .objectID, .composite, .undefined: return "bytea"
            }
        })
}
