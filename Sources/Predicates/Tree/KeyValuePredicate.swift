// The predicate tree: constant, comparison and compound predicates.
// See Docs/Predicates.md for the format language.
import Synchronization

/// A logical condition over key-value coding values: the ObjectGraph counterpart of
/// Apple's `NSPredicate`, `NSComparisonPredicate` and `NSCompoundPredicate`.
///
/// Build one from a format string, as with `NSPredicate(format:)`, or in code:
///
/// ```swift
/// let adults = try KeyValuePredicate(format: "age >= %d AND name BEGINSWITH[c] %@", 18, "a")
/// let same = KeyValuePredicate(.keyPath("age"), .greaterThanOrEqualTo, 18)
///     && KeyValuePredicate(.keyPath("name"), .beginsWith, .constant("a"), options: .caseInsensitive)
/// let matches = try adults.evaluate(with: person)
/// ```
///
/// A predicate is an immutable value. The first evaluation compiles the tree into closures
/// once; later evaluations reuse them, so evaluating in a loop never re-reads the tree.
///
/// - Important: Thread safety: a predicate is an immutable `Sendable` value and its lazily
///   compiled form is published once through an atomic reference (no lock per evaluation), so
///   evaluating the same predicate from several threads is safe as long as the evaluated
///   objects are. Constants are ``KeyValueConstant`` values (see there for object references).
public struct KeyValuePredicate: Sendable {
    /// What a predicate is made of.
    public enum Kind: Sendable {
        /// `TRUEPREDICATE` (true) or `FALSEPREDICATE` (false).
        case constant(Bool)
        /// Two expressions compared by an operator (Apple: `NSComparisonPredicate`).
        case comparison(KeyValueComparison)
        /// True when every subpredicate is true; true when there are none (Apple: `AND`).
        case and([KeyValuePredicate])
        /// True when any subpredicate is true; false when there are none (Apple: `OR`).
        case or([KeyValuePredicate])
        /// True when the subpredicate is false (Apple: `NOT`).
        case not(KeyValuePredicate)
        /// A Swift closure (Apple: `NSPredicate(block:)`); see ``KeyValuePredicate/init(block:)``.
        case block(KeyValueBlockPredicate)
    }

    let storage: PredicateStorage

    /// What this predicate is made of.
    public var kind: Kind { storage.kind }

    /// Creates a predicate from its parts.
    ///
    /// - Parameter kind: The constant, comparison or compound this predicate stands for.
    public init(_ kind: Kind) {
        storage = PredicateStorage(kind)
    }

    /// A predicate that is always true (Apple: `TRUEPREDICATE`,
    /// `NSPredicate(value: true)`).
    public static var alwaysTrue: KeyValuePredicate { KeyValuePredicate(.constant(true)) }

    /// A predicate that is always false (Apple: `FALSEPREDICATE`,
    /// `NSPredicate(value: false)`).
    public static var alwaysFalse: KeyValuePredicate { KeyValuePredicate(.constant(false)) }

    /// Creates a predicate that is always `value` (Apple: `NSPredicate(value:)`).
    ///
    /// - Parameter value: The result of every evaluation.
    public init(value: Bool) {
        self.init(.constant(value))
    }

    /// Creates a comparison predicate (Apple: `NSComparisonPredicate(leftExpression:
    /// rightExpression:modifier:type:options:)`).
    ///
    /// ```swift
    /// let p = KeyValuePredicate(.keyPath("name"), .like, .constant("a*"), options: .caseInsensitive)
    /// ```
    ///
    /// - Parameters:
    ///   - left: The left expression.
    ///   - comparisonOperator: How the two sides compare.
    ///   - right: The right expression.
    ///   - modifier: `.any` or `.all` to compare each element of a to-many left side.
    ///   - options: Case, diacritic and normalization options for string comparisons.
    public init(_ left: KeyValueExpression, _ comparisonOperator: ComparisonOperator,
                _ right: KeyValueExpression, modifier: ComparisonModifier = .direct,
                options: ComparisonOptions = []) {
        self.init(.comparison(KeyValueComparison(
            left, comparisonOperator, right, modifier: modifier, options: options)))
    }

    /// A predicate true when all `subpredicates` are (Apple:
    /// `NSCompoundPredicate(andPredicateWithSubpredicates:)`).
    ///
    /// - Parameter subpredicates: The predicates to combine; none gives a true predicate.
    /// - Returns: The conjunction.
    public static func and(_ subpredicates: [KeyValuePredicate]) -> KeyValuePredicate {
        KeyValuePredicate(.and(subpredicates))
    }

    /// A predicate true when any of `subpredicates` is (Apple:
    /// `NSCompoundPredicate(orPredicateWithSubpredicates:)`).
    ///
    /// - Parameter subpredicates: The predicates to combine; none gives a false predicate.
    /// - Returns: The disjunction.
    public static func or(_ subpredicates: [KeyValuePredicate]) -> KeyValuePredicate {
        KeyValuePredicate(.or(subpredicates))
    }

    /// A predicate true when `predicate` is false (Apple:
    /// `NSCompoundPredicate(notPredicateWithSubpredicate:)`).
    ///
    /// - Parameter predicate: The predicate to negate.
    /// - Returns: The negation.
    public static func not(_ predicate: KeyValuePredicate) -> KeyValuePredicate {
        KeyValuePredicate(.not(predicate))
    }

    /// The conjunction of two predicates, `lhs AND rhs`.
    public static func && (lhs: KeyValuePredicate, rhs: KeyValuePredicate) -> KeyValuePredicate {
        .and([lhs, rhs])
    }

    /// The disjunction of two predicates, `lhs OR rhs`.
    public static func || (lhs: KeyValuePredicate, rhs: KeyValuePredicate) -> KeyValuePredicate {
        .or([lhs, rhs])
    }

    /// The negation of a predicate, `NOT predicate`.
    public static prefix func ! (predicate: KeyValuePredicate) -> KeyValuePredicate {
        .not(predicate)
    }

    /// The comparison this predicate stands for, or nil for a constant or compound predicate.
    public var comparison: KeyValueComparison? {
        if case .comparison(let comparison) = kind { return comparison }
        return nil
    }

    /// The subpredicates of an `AND`, `OR` or `NOT` predicate; empty for the others
    /// (Apple: `NSCompoundPredicate.subpredicates`).
    public var subpredicates: [KeyValuePredicate] {
        switch kind {
        case .and(let list), .or(let list): return list
        case .not(let predicate): return [predicate]
        case .constant, .comparison, .block: return []
        }
    }
}

/// The shared, immutable body of a predicate and its lazily compiled evaluator.
final class PredicateStorage: Sendable {
    let kind: KeyValuePredicate.Kind
    /// Set once, by the first evaluation (see `compiled()`).
    let compiled = AtomicLazyReference<CompiledPredicate>()

    init(_ kind: KeyValuePredicate.Kind) {
        self.kind = kind
    }
}
