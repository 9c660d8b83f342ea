// What a dictionary fetch returns per object: keys, key paths, and named expressions.
import Foundation
import Predicates

/// A named expression evaluated for each fetched object or group, such as the sum of a
/// property over a group (Apple: `NSExpressionDescription`).
///
/// ```swift
/// let total = ExpressionDescription(name: "total", expression: .function(.sum, [.keyPath("radius")]))
/// ```
///
/// - Important: Thread safety: a `Sendable` value.
public struct ExpressionDescription: Sendable, Hashable {
    /// The key of the value in each result dictionary.
    public var name: String
    /// The expression. An aggregate function (`sum:`, `count:`, `min:`, `max:`, `average:`,
    /// `median:`) of one key path is computed over the objects of each group (over all matching
    /// objects without grouping); any other expression is evaluated on the group's first object.
    public var expression: KeyValueExpression
    /// The attribute type of the result, for stores that convert it; `nil` to keep what the
    /// expression gives (Apple: `expressionResultType`).
    public var resultType: AttributeDescription.AttributeType?

    /// Creates an expression description.
    public init(name: String, expression: KeyValueExpression, resultType: AttributeDescription.AttributeType? = nil) {
        self.name = name
        self.expression = expression
        self.resultType = resultType
    }
}

/// One entry of a dictionary fetch's ``EntityFetchRequest/propertiesToFetch`` or
/// ``EntityFetchRequest/propertiesToGroupBy``: a property name or key path, or a named
/// expression. A string literal is a key.
public enum PropertyToFetch: Sendable, Hashable, ExpressibleByStringLiteral {
    /// An attribute or relationship name, or a key path through to-one relationships
    /// (`"crate.label"`); a to-one relationship gives the related object's ID.
    case key(String)
    /// A named expression.
    case expression(ExpressionDescription)

    /// ``key(_:)``.
    public init(stringLiteral value: String) { self = .key(value) }

    /// The key of the value in each result dictionary.
    public var name: String {
        switch self {
        case .key(let key): return key
        case .expression(let description): return description.name
        }
    }
}
