// A value bound to a statement parameter or read from a result.
import Foundation

/// A statement parameter: every value reaches the server as one, never inside the SQL text.
///
/// Text travels in PostgreSQL's text format (the server parses it as the parameter's type,
/// named by a cast in the statement: `$1::bigint`); bytes travel in the binary format (a
/// `bytea` parameter, exactly as given).
package enum PostgreSQLValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A value in PostgreSQL's text form.
    case text(String)
    /// Raw bytes (for `bytea`).
    case bytes(Data)

    /// A bigint parameter.
    package static func integer(_ value: Int64) -> PostgreSQLValue { .text(String(value)) }

    /// A `bigint[]` parameter (`{1,2,3}`).
    package static func integers<S: Sequence<Int64>>(_ values: S) -> PostgreSQLValue {
        .text("{" + values.map(String.init).joined(separator: ",") + "}")
    }
}

/// The rows of a result, in text form: `nil` for SQL `NULL`.
package struct PostgreSQLRows: Sendable {
    /// The column names.
    package var columns: [String]
    /// Each row's values, in column order.
    package var rows: [[String?]]

    /// The value of a column as an integer.
    package static func integer(_ text: String?) -> Int64? { text.flatMap { Int64($0) } }
}
