// The order of two values as `compare:` gives it, shared by `@min`/`@max`, predicates and
// sort descriptors.
import Foundation

/// Compares two values as `compare:` does: numbers numerically across numeric types (see
/// ``NumberOrdering``: NaN first, integers exact), strings by their characters, dates by time
/// (NaN first), enumerations with raw values by their raw values, and other `Comparable` values
/// of one type by `<`.
///
/// `@min`/`@max` use it directly; predicates use it for every comparison that is not between two
/// strings with comparison options; sort descriptors use it for keys of mixed kinds. Strings
/// compare by `<` here (Unicode canonical order); predicates fold them first for `[c]`/`[d]`.
///
/// - Parameters:
///   - lhs: The left value (not `nil`, not `NSNull`).
///   - rhs: The right value (not `nil`, not `NSNull`).
/// - Returns: The order, or nil when the two values have no order between them (a number and
///   a string, two values of unrelated types).
/// - Complexity: O(1) for numbers and dates; O(*n*) for strings of length *n*.
///
/// Thread safety: call it from any thread.
package func compareValues(_ lhs: Any, _ rhs: Any) -> ComparisonResult? {
    if let a = lhs as? Int, let b = rhs as? Int { return NumberOrdering.ordered(a, b) }
    if let a = lhs as? String, let b = rhs as? String { return NumberOrdering.ordered(a, b) }
    let (left, right) = (ValueKind.of(type(of: lhs)), ValueKind.of(type(of: rhs)))
    if let readLeft = left.number, let readRight = right.number {
        return NumberOrdering.compare(readLeft(lhs), readRight(rhs))
    }
    if let a = lhs as? Date, let b = rhs as? Date { return NumberOrdering.ordered(a, b) }
    // Enumerations with raw values compare by their raw values.
    if let raw = left.rawValue {
        let value = raw(lhs)
        return type(of: value) == type(of: lhs) ? nil : compareValues(value, rhs)
    }
    if let raw = right.rawValue {
        let value = raw(rhs)
        return type(of: value) == type(of: rhs) ? nil : compareValues(lhs, value)
    }
    if let comparable = lhs as? any Comparable { return compareComparable(comparable, rhs) }
    return nil
}

private func compareComparable<T: Comparable>(_ lhs: T, _ rhs: Any) -> ComparisonResult? {
    guard let right = castWithoutBridging(rhs, to: T.self) else { return nil }
    return NumberOrdering.ordered(lhs, right)
}
