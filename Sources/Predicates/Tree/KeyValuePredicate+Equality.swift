// Structural equality of predicates and expressions.
import Foundation

extension KeyValuePredicate: Equatable {
    /// Whether two predicates have the same structure, operators, options and constants.
    ///
    /// Constants compare as values: numbers numerically (`1 == 1.0 == true`), strings,
    /// dates and collections by content, other objects by identity (or `Hashable` equality).
    /// An aggregate of constants equals a constant array with the same elements, so a
    /// predicate built with `IN %@` equals the one parsed from its `predicateFormat`.
    public static func == (lhs: KeyValuePredicate, rhs: KeyValuePredicate) -> Bool {
        if lhs.storage === rhs.storage { return true }
        switch (lhs.kind, rhs.kind) {
        case let (.constant(a), .constant(b)): return a == b
        case let (.comparison(a), .comparison(b)): return a == b
        case let (.and(a), .and(b)), let (.or(a), .or(b)): return a == b
        case let (.not(a), .not(b)): return a == b
        default: return false
        }
    }
}

extension KeyValueComparison: Equatable {
    public static func == (lhs: KeyValueComparison, rhs: KeyValueComparison) -> Bool {
        lhs.comparisonOperator == rhs.comparisonOperator && lhs.modifier == rhs.modifier
            && lhs.options == rhs.options && lhs.leftExpression == rhs.leftExpression
            && lhs.rightExpression == rhs.rightExpression
    }
}

extension KeyValueExpression: Equatable {
    /// Whether two expressions have the same structure and equal constants.
    ///
    /// `SELF.path` equals `path`, and an aggregate of constants equals a constant array with
    /// equal elements.
    public static func == (lhs: KeyValueExpression, rhs: KeyValueExpression) -> Bool {
        switch (lhs.normalizedForEquality, rhs.normalizedForEquality) {
        case (.evaluatedObject, .evaluatedObject): return true
        case let (.constant(a), .constant(b)): return ValueEquality.treeEqual(a, b)
        case let (.keyPath(a), .keyPath(b)): return a == b
        case let (.keyPathOf(a, p), .keyPathOf(b, q)): return p == q && a == b
        case let (.variable(a), .variable(b)): return a == b
        case let (.aggregate(a), .aggregate(b)): return a == b
        case let (.aggregate(a), .constant(b)), let (.constant(b), .aggregate(a)):
            return aggregate(a, equalsConstant: b)
        case let (.function(f, a), .function(g, b)): return f == g && a == b
        case let (.subquery(c, v, p), .subquery(d, w, q)): return v == w && c == d && p == q
        case let (.conditional(p, a, b), .conditional(q, c, d)): return p == q && a == c && b == d
        case let (.index(a, i), .index(b, j)): return a == b && i == j
        case let (.indexSymbol(a), .indexSymbol(b)): return a == b
        default: return false
        }
    }

    private var normalizedForEquality: KeyValueExpression {
        if case .keyPathOf(.evaluatedObject, let path) = self { return .keyPath(path) }
        return self
    }

    private static func aggregate(_ elements: [KeyValueExpression], equalsConstant value: Any?) -> Bool {
        guard let value, let array = ValueCollections.elements(of: value) else { return false }
        guard array.count == elements.count else { return false }
        for (element, item) in zip(elements, array) where element != .constant(item) {
            return false
        }
        return true
    }
}
