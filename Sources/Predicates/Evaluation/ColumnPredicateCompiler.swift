// Predicates compiled against a store's rows by column: a key compared with a constant reads
// the row's slot in the key's column directly, with the evaluator's own typed comparison.
import Foundation
import KeyValueCoding

/// One column of a store's rows: the value of one key in each row, sorted by kind (the
/// ``KeyValueCoding/KeyValueReading`` that reading the key from the row's object gives).
package typealias KeyValueReadingColumn = ContiguousArray<KeyValueReading>

/// A test of the row at a position.
package typealias RowPositionTest = (Int) throws -> Bool

extension KeyValuePredicate {
    /// The predicate compiled against rows held by column: a comparison of a column's key
    /// with a constant, or of two columns' keys, reads the row's readings straight from the
    /// columns; every other subpredicate (key paths through other objects, aggregates,
    /// subqueries, functions, blocks, `ANY`/`ALL`) is tested by `fallback`.
    ///
    /// The result is what ``evaluate(with:)`` gives for an object whose key `k` reads as
    /// `column(k)[position]` (``KeyValueCoding/KeyValueProperty/reading(of:)``): the compiled
    /// comparisons are the ones the general evaluator runs on such a reading (the same
    /// constant preparation, nil rules, folding and numeric comparison), and the compound
    /// predicates evaluate their parts in the same order, stopping at the same part.
    ///
    /// - Parameters:
    ///   - column: The column of a key, or `nil` when the key is not one (tested by `fallback`).
    ///     Only keys without dots or `@` are asked for.
    ///   - fallback: Builds the test of a subpredicate that reads more than columns.
    /// - Returns: The test of a row by its position in the columns.
    /// - Throws: What compiling the predicate throws (a bad `MATCHES` pattern, …).
    /// - Complexity: O(size of the predicate) to compile; each test reads one slot per
    ///   compared key.
    package func compiledColumnTest(column: @escaping (String) -> KeyValueReadingColumn?,
                                    fallback: @escaping (KeyValuePredicate) throws -> RowPositionTest) throws -> RowPositionTest {
        try ColumnPredicateCompiler(column: column, fallback: fallback).compile(self)
    }
}

/// Builds the tests of ``KeyValuePredicate/compiledColumnTest(column:fallback:)``, mirroring
/// ``PredicateCompiler`` and ``ComparisonCompiler/compileReading``.
struct ColumnPredicateCompiler {
    let column: (String) -> KeyValueReadingColumn?
    let fallback: (KeyValuePredicate) throws -> RowPositionTest

    func compile(_ predicate: KeyValuePredicate) throws -> RowPositionTest {
        switch predicate.kind {
        case .constant(let value):
            return { _ in value }
        case .comparison(let comparison):
            if let test = try compile(comparison) { return test }
            return try fallback(predicate)
        case .and(let list):
            return try compound(list, all: true)
        case .or(let list):
            return try compound(list, all: false)
        case .not(let inner):
            let test = try compile(inner)
            return { position in try !test(position) }
        case .block:
            return try fallback(predicate)
        }
    }

    /// AND (`all`) or OR of `list`, in order, stopping where the general evaluator stops.
    private func compound(_ list: [KeyValuePredicate], all: Bool) throws -> RowPositionTest {
        switch list.count {
        case 0:
            return { _ in all }
        case 1:
            return try compile(list[0])
        case 2:
            let (a, b) = (try compile(list[0]), try compile(list[1]))
            if all { return { position in try a(position) && b(position) } }
            return { position in try a(position) || b(position) }
        default:
            let tests = try list.map(compile)
            if all {
                return { position in
                    for test in tests where try !test(position) { return false }
                    return true
                }
            }
            return { position in
                for test in tests where try test(position) { return true }
                return false
            }
        }
    }

    /// `key op constant` or `key op key` on columns, as ``ComparisonCompiler`` compiles a
    /// comparison whose left side is a key path; `nil` for any other comparison.
    func compile(_ comparison: KeyValueComparison) throws -> RowPositionTest? {
        guard comparison.modifier == .direct, let left = columnOf(comparison.leftExpression) else { return nil }
        let op = comparison.comparisonOperator
        let options = comparison.options
        if let constant = ExpressionCompiler.comparisonConstant(of: comparison.rightExpression) {
            let test = try ReadingComparison.specialized(op, options: options, constant: constant)
            return try Self.commonCase(op, options: options, constant: constant, left, else: test)
                ?? { position in try test(left[position]) }
        }
        guard let right = columnOf(comparison.rightExpression) else { return nil }
        return { position in try ReadingComparison.test(op, options: options, left[position], right[position]) }
    }

    /// The test of the commonest slots read in place: an integer against an integer constant,
    /// a string against a string operator's pattern. It gives what `general` gives for them
    /// (``ReadingComparison``'s own first cases); every other slot goes to `general`.
    private static func commonCase(_ op: ComparisonOperator, options: ComparisonOptions, constant: Any?,
                                   _ left: KeyValueReadingColumn,
                                   else general: @escaping ReadingComparison.ReadingTest) throws -> RowPositionTest? {
        switch op {
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .equalTo, .notEqualTo:
            guard let constant, case .integer(let number)? = KeyValueNumber(constant) else { return nil }
            return { position in
                if case .number(.integer(let value)) = left[position] {
                    return ComparisonEvaluator.holds(op, NumberOrdering.ordered(value, number))
                }
                return try general(left[position])
            }
        case .beginsWith, .endsWith, .like, .matches, .contains:
            guard let pattern = constant as? String else { return nil }
            let matcher = try StringMatcher(op, pattern: pattern, options: options)
            return { position in
                if case .string(let subject) = left[position] { return try matcher.matches(subject) }
                return try general(left[position])
            }
        case .in, .between:
            return nil
        }
    }

    /// The column of a key path expression naming one key that is a column.
    func columnOf(_ expression: KeyValueExpression) -> KeyValueReadingColumn? {
        guard case .keyPath(let key) = expression, !key.isEmpty, !key.contains("."), !key.hasPrefix("@") else { return nil }
        return column(key)
    }
}
