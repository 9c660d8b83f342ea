// The comparison operators on two values, with Apple's rules for nil, numbers, strings and
// collections.
import Foundation

package enum ComparisonEvaluator {
    /// Whether `lhs operator rhs` holds. Both values are normalized (no optionals, no NSNull).
    package static func test(_ comparisonOperator: ComparisonOperator, options: ComparisonOptions,
                     _ lhs: Any?, _ rhs: Any?) throws -> Bool {
        switch comparisonOperator {
        case .equalTo:
            return try ValueEquality.equal(lhs, rhs, options: options)
        case .notEqualTo:
            return try !ValueEquality.equal(lhs, rhs, options: options)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard let order = try ValueEquality.order(lhs, rhs, options: options,
                                                      operation: comparisonOperator.symbol) else {
                return false   // nil is neither less nor greater than anything
            }
            return holds(comparisonOperator, order)
        case .beginsWith, .endsWith, .like, .matches:
            guard let subject = try string(lhs, comparisonOperator), let pattern = try string(rhs, comparisonOperator) else {
                return false
            }
            return try StringMatcher(comparisonOperator, pattern: pattern, options: options).matches(subject)
        case .contains:
            return try contains(lhs, rhs, options: options)
        case .in:
            return try contains(rhs, lhs, options: options)
        case .between:
            return try between(lhs, rhs, options: options)
        }
    }

    @inline(__always)
    static func holds(_ comparisonOperator: ComparisonOperator, _ order: ComparisonResult) -> Bool {
        switch comparisonOperator {
        case .lessThan: return order == .orderedAscending
        case .lessThanOrEqualTo: return order != .orderedDescending
        case .greaterThan: return order == .orderedDescending
        case .greaterThanOrEqualTo: return order != .orderedAscending
        case .equalTo: return order == .orderedSame
        default: return order != .orderedSame
        }
    }

    /// A string operand; nil for nil; a thrown error for other values.
    private static func string(_ value: Any?, _ comparisonOperator: ComparisonOperator) throws -> String? {
        guard let value else { return nil }
        if let string = value as? String { return string }
        if let string = value as? Substring { return String(string) }
        throw PredicateEvaluationError.incomparableValues(operation: comparisonOperator.symbol,
                                                left: ValueCollections.typeDescription(value), right: "String")
    }

    /// `container CONTAINS element` (and `element IN container`): membership in a collection,
    /// a substring of a string; false when the container is nil.
    static func contains(_ container: Any?, _ element: Any?, options: ComparisonOptions) throws -> Bool {
        guard let container else { return false }
        if let string = container as? String {
            guard let element else { return false }
            guard let substring = element as? String else {
                throw PredicateEvaluationError.incomparableValues(operation: "CONTAINS", left: "String",
                                                        right: ValueCollections.typeDescription(element))
            }
            return try StringMatcher(.contains, pattern: substring, options: options).matches(string)
        }
        let elements = try ValueCollections.requireElements(of: container, for: "IN/CONTAINS")
        for candidate in elements where try ValueEquality.equal(candidate, element, options: options) {
            return true
        }
        return false
    }

    /// `value BETWEEN {low, high}`, bounds included.
    static func between(_ value: Any?, _ bounds: Any?, options: ComparisonOptions) throws -> Bool {
        guard !ValueCollections.isDictionary(bounds), let elements = ValueCollections.elements(of: bounds),
              elements.count == 2 else {
            throw PredicateEvaluationError.invalidBetweenBounds(ValueCollections.typeDescription(bounds))
        }
        guard let low = try ValueEquality.order(value, elements[0], options: options, operation: "BETWEEN"),
              let high = try ValueEquality.order(value, elements[1], options: options, operation: "BETWEEN") else {
            return false
        }
        return low != .orderedAscending && high != .orderedDescending
    }
}
