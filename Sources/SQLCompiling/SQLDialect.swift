// What differs between SQL databases in the statements a store writes: quoting, parameters,
// column types, and how a predicate's comparisons are spelled. One dialect value per database,
// so that one predicate compiler (SQLPredicateCompiler) serves them all.
import Foundation
import ManagedObjects

/// The spelling of SQL for one database: identifier quoting, parameter placeholders, the
/// column type of each attribute type, and the rules by which predicates become conditions
/// (``SQLPredicateRules``).
///
/// ``postgreSQL`` is defined here (it uses only the server's built-in functions); the SQLite
/// store defines its own, whose rules call the functions it registers on its connections.
///
/// - Important: Thread safety: a `Sendable` value.
package struct SQLDialect: Sendable {
    /// The database's name, for messages.
    package var name: String
    /// Whether identifiers are put in double quotes (PostgreSQL, whose unquoted names fold to
    /// lower case); SQLite's store writes its upper-case `Z…` names bare.
    package var quotesIdentifiers: Bool
    /// The placeholder of the parameter at a 1-based position, with its type when the
    /// database wants one (`$3::bigint`).
    package var placeholder: @Sendable (_ position: Int, _ type: String?) -> String
    /// The column type of an attribute type.
    package var columnType: @Sendable (AttributeDescription.AttributeType) -> String
    /// How comparisons, strings, NaN, nil and sort orders become SQL.
    package var rules: any SQLPredicateRules

    package init(name: String, quotesIdentifiers: Bool, placeholder: @escaping @Sendable (Int, String?) -> String,
                 columnType: @escaping @Sendable (AttributeDescription.AttributeType) -> String,
                 rules: any SQLPredicateRules) {
        self.name = name
        self.quotesIdentifiers = quotesIdentifiers
        self.placeholder = placeholder
        self.columnType = columnType
        self.rules = rules
    }

    /// An identifier in double quotes, inner quotes doubled (standard SQL), so that any name
    /// is one identifier and keeps its case; as it is when the dialect writes names bare.
    ///
    /// - Complexity: O(*n*) in the name's length.
    package func quoted(_ identifier: String) -> String {
        guard quotesIdentifiers else { return identifier }
        return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `sql` with each `?` placeholder (outside quoted identifiers and string literals)
    /// spelled as the dialect's placeholder for its argument, numbered from `first`.
    ///
    /// The compiler writes `?` for every parameter, in the order of its arguments; SQLite
    /// keeps them, PostgreSQL numbers and types them (`$4::text`).
    ///
    /// - Complexity: O(*n*) in the length of `sql`.
    package func numbered(_ sql: String, arguments: [SQLValue], from first: Int = 1) -> String {
        guard placeholder(1, nil) != "?" else { return sql }
        var result = ""
        result.reserveCapacity(sql.utf8.count + arguments.count * 8)
        var index = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "\"" || character == "'" {
                quote = character
                result.append(character)
            } else if character == "?" {
                let type = index < arguments.count ? arguments[index].postgreSQLType : nil
                result += placeholder(first + index, type)
                index += 1
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// PostgreSQL: `$n::type` placeholders; exact numeric types for decimals, `uuid` and
    /// `bytea`; dates as seconds since 2001-01-01 (Core Data's reference date) in
    /// `double precision`; predicates through built-in functions only
    /// (``PostgreSQLPredicateRules``).
    package static let postgreSQL = SQLDialect(
        name: "PostgreSQL",
        quotesIdentifiers: true,
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
        },
        rules: PostgreSQLPredicateRules())
}
