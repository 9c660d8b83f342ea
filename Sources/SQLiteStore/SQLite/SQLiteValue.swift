// The five kinds of value SQLite stores.
import Foundation

/// A value as SQLite stores it: one of its five storage classes.
package enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// The value as an integer, when it is a number with an integral value.
    package var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .real(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// The value as a double, when it is a number.
    package var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    /// Whether the value is NULL.
    package var isNull: Bool { self == .null }
}
