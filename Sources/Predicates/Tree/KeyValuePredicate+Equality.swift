// Structural equality and hashing of predicates and expressions.
import Foundation

extension KeyValuePredicate: Hashable {
    /// Whether two predicates have the same structure, operators, options and constants.
    ///
    /// Constants compare as ``KeyValueConstant`` values: numbers numerically
    /// (`1 == 1.0 == true`), strings, dates and collections by content, objects by identity.
    /// An aggregate of constants equals a constant array with the same elements, so a
    /// predicate built with `IN %@` equals the one parsed from its `predicateFormat`. Equal
    /// predicates hash alike.
    public static func == (lhs: KeyValuePredicate, rhs: KeyValuePredicate) -> Bool {
        if lhs.storage === rhs.storage { return true }
        switch (lhs.kind, rhs.kind) {
        case let (.constant(a), .constant(b)): return a == b
        case let (.comparison(a), .comparison(b)): return a == b
        case let (.and(a), .and(b)), let (.or(a), .or(b)): return a == b
        case let (.not(a), .not(b)): return a == b
        case let (.block(a), .block(b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch kind {
        case .constant(let value): hasher.combine(0); hasher.combine(value)
        case .comparison(let comparison): hasher.combine(1); hasher.combine(comparison)
        case .and(let list): hasher.combine(2); hasher.combine(list)
        case .or(let list): hasher.combine(3); hasher.combine(list)
        case .not(let inner): hasher.combine(4); hasher.combine(inner)
        case .block(let block): hasher.combine(5); hasher.combine(block)
        }
    }
}


extension KeyValueExpression: Hashable {
    /// Whether two expressions have the same structure and equal constants.
    ///
    /// `SELF.path` equals `path`, and an aggregate of constants equals a constant array with
    /// equal elements. Equal expressions hash alike.
    public static func == (lhs: KeyValueExpression, rhs: KeyValueExpression) -> Bool {
        switch (lhs.normalizedForEquality, rhs.normalizedForEquality) {
        case (.evaluatedObject, .evaluatedObject): return true
        case let (.constant(a), .constant(b)): return a == b
        case let (.keyPath(a), .keyPath(b)): return a == b
        case let (.keyPathOf(a, p), .keyPathOf(b, q)): return p == q && a == b
        case let (.variable(a), .variable(b)): return a == b
        case let (.aggregate(a), .aggregate(b)): return a == b
        case let (.function(f, a), .function(g, b)): return f == g && a == b
        case let (.subquery(c, v, p), .subquery(d, w, q)): return v == w && c == d && p == q
        case let (.conditional(p, a, b), .conditional(q, c, d)): return p == q && a == c && b == d
        case let (.index(a, i), .index(b, j)): return a == b && i == j
        case let (.indexSymbol(a), .indexSymbol(b)): return a == b
        case let (.setOperation(a, o, b), .setOperation(c, p, d)): return o == p && a == c && b == d
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch normalizedForEquality {
        case .evaluatedObject: hasher.combine(0)
        case .constant(let value): hasher.combine(1); hasher.combine(value)
        case .keyPath(let path): hasher.combine(2); hasher.combine(path)
        case let .keyPathOf(operand, path): hasher.combine(3); hasher.combine(operand); hasher.combine(path)
        case .variable(let name): hasher.combine(4); hasher.combine(name)
        case .aggregate(let elements): hasher.combine(5); hasher.combine(elements)
        case let .function(function, arguments): hasher.combine(6); hasher.combine(function); hasher.combine(arguments)
        case let .subquery(collection, variable, predicate):
            hasher.combine(7); hasher.combine(collection); hasher.combine(variable); hasher.combine(predicate)
        case let .conditional(predicate, a, b):
            hasher.combine(8); hasher.combine(predicate); hasher.combine(a); hasher.combine(b)
        case let .index(collection, index): hasher.combine(9); hasher.combine(collection); hasher.combine(index)
        case .indexSymbol(let symbol): hasher.combine(10); hasher.combine(symbol)
        case let .setOperation(a, operation, b): hasher.combine(11); hasher.combine(a); hasher.combine(operation); hasher.combine(b)
        }
    }

    /// `SELF.path` as `path`; an aggregate of constants as one constant array.
    private var normalizedForEquality: KeyValueExpression {
        switch self {
        case .keyPathOf(.evaluatedObject, let path): return .keyPath(path)
        case .aggregate:
            if let constant = constantAggregate { return .constant(constant) }
            return self
        default: return self
        }
    }

    /// The constant array an aggregate of constants (at any depth) stands for, or nil.
    var constantAggregate: KeyValueConstant? {
        switch self {
        case .constant(let value): return value
        case .aggregate(let elements):
            var values: [KeyValueConstant] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                guard let value = element.constantAggregate else { return nil }
                values.append(value)
            }
            return .array(values)
        default: return nil
        }
    }
}
