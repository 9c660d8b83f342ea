// The parts of predicate compilation that differ between databases.
import Foundation
import ManagedObjects
import Predicates

/// A column a comparison reads: the SQL giving its value for the row being tested, and the
/// (quoted) table and column it is kept in, for checks over the whole table.
package struct SQLColumnReference: Sendable {
    /// SQL giving the value (`t0.ZNAME`, or a key look-up through to-ones).
    package var sql: String
    /// The quoted table holding the column.
    package var table: String
    /// The quoted column.
    package var column: String
}

/// A string comparison as SQL, with what it assumes of the stored data.
package struct SQLStringTest: Sendable {
    package var condition: SQLCondition
    /// A query (`SELECT 1 FROM … WHERE …`) finding rows whose values the condition may decide
    /// differently from the in-memory evaluation; the condition holds as written only while
    /// it finds none. `nil` when the condition holds for any data.
    package var assumption: SQLFragment?

    package init(_ condition: SQLCondition, assuming assumption: SQLFragment? = nil) {
        self.condition = condition
        self.assumption = assumption
    }
}

/// How one database spells what a predicate asks, so that its SQL decides exactly as the
/// in-memory evaluation (Predicates' `ComparisonEvaluator`, `StringMatcher`, sort
/// descriptors) decides, or declines (`nil`), leaving that part to memory.
///
/// Conditions are built from `?` placeholders whose values are ``SQLValue``s, in textual
/// order (``SQLDialect/numbered(_:arguments:from:)`` spells them for the database).
///
/// - Important: Thread safety: conformers are `Sendable` values.
package protocol SQLPredicateRules: Sendable {
    /// The always-true and always-false conditions (`1`/`0`, `TRUE`/`FALSE`).
    var trueLiteral: String { get }
    var falseLiteral: String { get }
    /// The most arguments one statement may carry; larger predicates are left to memory.
    var maximumArguments: Int { get }

    /// `sql`, or `fallback` when it is NULL.
    func ifNull(_ sql: String, _ fallback: String) -> String
    /// True when `a` and `b` differ, counting NULL as a value (`IS NOT`, `IS DISTINCT FROM`).
    func isDistinct(_ a: String, _ b: String) -> String
    /// True when `a` and `b` are equal, counting NULL as a value.
    func isNotDistinct(_ a: String, _ b: String) -> String

    /// A constant as a column of the attribute type stores values, when the database compares
    /// the two exactly as the evaluator does; `nil` otherwise.
    func comparable(_ constant: KeyValueConstant, for type: AttributeDescription.AttributeType) -> SQLValue?
    /// A string operand prepared for comparison by Swift's `String` rules (canonical
    /// equivalence, Unicode scalar order) with ``textCollation``.
    func text(_ sql: String) -> String
    /// Appended after a prepared string operand or placeholder (` COLLATE …`).
    var textCollation: String { get }
    /// True for a double column's NaN rows.
    func isNaN(_ sql: String) -> SQLFragment
    /// The average of an integer column's values over a subquery's rows (NULL without rows).
    func average(of value: String) -> String

    /// A string column compared with string options (`[c]`, `[d]`) or by a string operator
    /// (`BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, `MATCHES`), or `IN` with options.
    ///
    /// - Parameters:
    ///   - negated: The comparison is inside a `NOT`: it must be true or false, never NULL.
    ///   - mayAssume: Whether the test may rely on an assumption about the data
    ///     (``SQLStringTest/assumption``).
    /// - Returns: The test, or `nil` when SQL cannot decide it.
    func stringTest(_ column: SQLColumnReference, _ op: ComparisonOperator, _ constant: KeyValueConstant,
                    options: ComparisonOptions, negated: Bool, mayAssume: Bool) -> SQLStringTest?

    /// `ORDER BY` terms ordering an attribute's values as a sort descriptor orders them in
    /// memory (nil first ascending; NaN after nil and before every number), or `nil`.
    func orderTerms(_ sql: String, _ type: AttributeDescription.AttributeType,
                    _ comparison: KeyValueSortDescriptor.Comparison, ascending: Bool) -> SQLFragment?
}
