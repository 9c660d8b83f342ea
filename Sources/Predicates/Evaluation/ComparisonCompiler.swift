// Compiles comparisons into closures, with fast paths for constant right-hand sides.
import Foundation
import KeyValueCoding

enum ComparisonCompiler {
    typealias UnaryTest = (Any?) throws -> Bool

    static func compile(_ comparison: KeyValueComparison) throws -> TestClosure {
        if comparison.modifier == .direct, let left = try ExpressionCompiler.readingClosure(comparison.leftExpression) {
            return try compileReading(comparison, left: left)
        }
        let left = try ExpressionCompiler.compile(comparison.leftExpression)
        let op = comparison.comparisonOperator
        let options = comparison.options
        let modifier = comparison.modifier
        if let constant = ExpressionCompiler.comparisonConstant(of: comparison.rightExpression) {
            let test = try specialized(op, options: options, constant: constant)
            return apply(modifier, left: left) { value, _, _ in try test(value) }
        }
        let right = try ExpressionCompiler.compile(comparison.rightExpression)
        return apply(modifier, left: left) { value, object, scope in
            try ComparisonEvaluator.test(op, options: options, value, try right(object, scope))
        }
    }

    /// A comparison whose left side is a key path: the key path is read as a
    /// ``KeyValueCoding/KeyValueReading`` and compared without an `Any` box where it can be.
    private static func compileReading(_ comparison: KeyValueComparison,
                                       left: @escaping ReadingClosure) throws -> TestClosure {
        let op = comparison.comparisonOperator
        let options = comparison.options
        if let constant = ExpressionCompiler.comparisonConstant(of: comparison.rightExpression) {
            let test = try ReadingComparison.specialized(op, options: options, constant: constant)
            if case .keyPath(let keyPath) = comparison.leftExpression {
                // The common case (`age > 30`): read the key path straight into the test.
                let reader = KeyPathReader(keyPath)
                return { object, _ in try test(try reader.reading(of: object)) }
            }
            return { object, scope in try test(try left(object, scope)) }
        }
        if let right = try ExpressionCompiler.readingClosure(comparison.rightExpression) {
            return { object, scope in
                let value = try left(object, scope)
                return try ReadingComparison.test(op, options: options, value, try right(object, scope))
            }
        }
        let right = try ExpressionCompiler.compile(comparison.rightExpression)
        return { object, scope in
            let value = try left(object, scope).anyValue
            return try ComparisonEvaluator.test(op, options: options, value, try right(object, scope))
        }
    }

    /// Applies `test` to the left value directly, or to each of its elements for ANY/ALL. A nil
    /// left value has no elements: ANY is false (NONE true), ALL vacuously true.
    private static func apply(_ modifier: ComparisonModifier, left: @escaping ValueClosure,
                              _ test: @escaping (Any?, Any?, VariableScope?) throws -> Bool) -> TestClosure {
        switch modifier {
        case .direct:
            return { object, scope in try test(try left(object, scope), object, scope) }
        case .any:
            return { object, scope in
                let elements = try ValueCollections.qualifiedElements(of: try left(object, scope), for: "ANY")
                for element in elements where try test(element, object, scope) { return true }
                return false
            }
        case .all:
            return { object, scope in
                let elements = try ValueCollections.qualifiedElements(of: try left(object, scope), for: "ALL")
                for element in elements where try !test(element, object, scope) { return false }
                return true
            }
        }
    }

    /// A test of the left value against a constant right side, with the constant's
    /// preparation (folding, pattern compiling, set building) done once.
    static func specialized(_ op: ComparisonOperator, options: ComparisonOptions,
                            constant: Any?) throws -> UnaryTest {
        let general: UnaryTest = { value in try ComparisonEvaluator.test(op, options: options, value, constant) }
        switch op {
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .equalTo, .notEqualTo:
            if let number = constant as? Int {
                return { value in
                    if let int = value as? Int { return ComparisonEvaluator.holds(op, NumberOrdering.ordered(int, number)) }
                    return try general(value)
                }
            }
            if let number = constant as? Double, !number.isNaN {
                return { value in
                    if let double = value as? Double {
                        return ComparisonEvaluator.holds(op, NumberOrdering.ordered(double, number))
                    }
                    return try general(value)
                }
            }
            if let string = constant as? String, op == .equalTo || op == .notEqualTo {
                let matcher = try StringMatcher(op, pattern: string, options: options)
                return { value in
                    if let subject = value as? String { return try matcher.matches(subject) }
                    return try general(value)
                }
            }
            return general
        case .beginsWith, .endsWith, .like, .matches, .contains:
            guard let pattern = constant as? String else { return general }
            let matcher = try StringMatcher(op, pattern: pattern, options: options)
            return { value in
                if let subject = value as? String { return try matcher.matches(subject) }
                return try general(value)
            }
        case .in:
            return membership(constant, options: options) ?? general
        case .between:
            return general
        }
    }

    /// `value IN {"x", "y"}` as a string lookup when every element is a string.
    private static func membership(_ constant: Any?, options: ComparisonOptions) -> UnaryTest? {
        guard let strings = StringSetMatcher(constant, options: options) else { return nil }
        return { value in
            guard let string = value as? String else { return false }
            return strings.contains(string)
        }
    }
}
