// Sort keys extracted once per object, and how they compare.
import Foundation
import KeyValueCoding

/// A value read for sorting, prepared for its comparison (strings folded for
/// case-insensitive comparisons).
enum SortKey {
    case null
    case integer(Int)
    case double(Double)
    case string(String)
    case date(Date)
    case other(Any)

    /// - Parameter raw: A value already normalized by the column's reader.
    init(_ raw: Any?, _ comparison: KeyValueSortDescriptor.Comparison) {
        guard let value = raw else {
            self = .null
            return
        }
        if case .comparator = comparison {
            self = .other(value)
            return
        }
        switch value {
        case let int as Int: self = .integer(int)
        case let double as Double: self = .double(double)
        case let string as String:
            if case .caseInsensitiveCompare = comparison {
                self = .string(StringFolding.fold(string, options: .caseInsensitive))
            } else {
                self = .string(string)
            }
        case let date as Date: self = .date(date)
        default: self = .other(value)
        }
    }

    var value: Any? {
        switch self {
        case .null: return nil
        case .integer(let v): return v
        case .double(let v): return v
        case .string(let v): return v
        case .date(let v): return v
        case .other(let v): return v
        }
    }

    /// Ascending order of two keys; nil first.
    static func compare(_ lhs: SortKey, _ rhs: SortKey,
                        _ comparison: KeyValueSortDescriptor.Comparison) throws -> ComparisonResult {
        switch (lhs, rhs) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case let (.integer(a), .integer(b)): return NumberOrdering.ordered(a, b)
        case let (.double(a), .double(b)): return NumberOrdering.ordered(a, b)
        case let (.string(a), .string(b)): return compareStrings(a, b, comparison)
        case let (.date(a), .date(b)): return NumberOrdering.ordered(a, b)
        default:
            if case .comparator(let comparator) = comparison { return comparator(lhs.value, rhs.value) }
            return try ValueEquality.order(lhs.value, rhs.value, options: [], operation: "sorting") ?? .orderedSame
        }
    }

    static func compareStrings(_ a: String, _ b: String,
                               _ comparison: KeyValueSortDescriptor.Comparison) -> ComparisonResult {
        switch comparison {
        case .localizedCompare: return a.localizedCompare(b)
        case .localizedCaseInsensitiveCompare: return a.localizedCaseInsensitiveCompare(b)
        case .localizedStandardCompare: return a.localizedStandardCompare(b)
        case .comparator(let comparator): return comparator(a, b)
        case .compare, .caseInsensitiveCompare: return NumberOrdering.ordered(a, b)
        }
    }
}
