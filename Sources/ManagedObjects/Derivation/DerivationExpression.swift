// Derived attributes: the documented derivation expressions, parsed and evaluated.
import Foundation
import Predicates

/// The expression of a derived attribute, parsed (Apple: the `NSExpression` of
/// `NSDerivedAttributeDescription.derivationExpression`).
///
/// The forms Core Data documents for derived attributes are understood:
///
/// | written | value |
/// |---|---|
/// | `title`, `author.name` | a key path of the object |
/// | `items.@count` | the number of related objects |
/// | `items.@sum.price`, `items.price.@sum` (also `@max`, `@min`, `@avg`) | an aggregate through a to-many key |
/// | `canonical:(title)` | the text without case and diacritics (`"Élan"` → `"elan"`) |
/// | `lowercase:(title)`, `uppercase:(title)` | the text in one case |
/// | `now()` | the current date |
///
/// Any other expression of the predicate format language (`price * quantity`,
/// `sum:(items.price)`) is read by ``KeyValueExpression/init(format:_:)`` and evaluated by the
/// Predicates layer, as every form above is.
///
/// ```swift
/// let e = try DerivationExpression("canonical:(title)")
/// try e.value(for: movie)    // "metropolis" for "Metropolis"
/// ```
///
/// - Important: Thread safety: a `Sendable` value. Evaluating it reads the object, which must
///   be used where its owner allows.
public struct DerivationExpression: Sendable {
    /// The text as written in the model.
    public let text: String
    /// The expression the text reads as (for `canonical:(x)`, the expression of `x`).
    public let expression: KeyValueExpression
    /// Whether the value is folded to canonical text (lowercase, no diacritics).
    public let isCanonical: Bool

    /// Parses a derivation expression.
    ///
    /// - Parameter text: The expression as written in the model.
    /// - Throws: ``DerivationExpressionError`` with the parser's message, for an empty or
    ///   malformed expression or an unknown function.
    public init(_ text: String) throws(DerivationExpressionError) {
        self.text = text
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw DerivationExpressionError(expression: text, message: "the expression is empty") }
        if let (name, inner) = Self.selectorCall(trimmed), name == "canonical" {
            let operand = try DerivationExpression(inner)
            guard !operand.isCanonical else {
                throw DerivationExpressionError(expression: text, message: "canonical:() applied twice")
            }
            expression = operand.expression
            isCanonical = true
            return
        }
        expression = try Self.parse(trimmed, original: text)
        isCanonical = false
    }

    /// The expression's value for `object`, read through key-value coding (any
    /// `KeyValueCodable` object, dictionary or value the Predicates layer reads).
    ///
    /// - Parameter object: The object the key paths start from.
    /// - Returns: The value; `nil` when a key path reaches `nil`.
    /// - Throws: The Predicates layer's evaluation errors (an undefined key, a function given
    ///   the wrong kind of value).
    public func value(for object: Any) throws -> Any? {
        let value = try expression.expressionValue(with: object)
        guard isCanonical, let value = unwrappedAttributeValue(value) else { return value }
        guard let string = value as? String else { return value }
        return Self.canonical(string)
    }

    /// `text` without case and diacritics, as Core Data's `canonical:` function.
    public static func canonical(_ text: String) -> String {
        text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil).lowercased()
    }

    // MARK: Parsing

    /// `name:(inner)` → (name, inner).
    private static func selectorCall(_ text: String) -> (String, String)? {
        guard text.hasSuffix(")"), let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon]
        let rest = text[text.index(after: colon)...].drop { $0 == " " }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
              rest.hasPrefix("(") else { return nil }
        return (String(name), String(rest.dropFirst().dropLast()))
    }

    private static let trailingOperators: Set<String> = ["@sum", "@max", "@min", "@avg"]

    private static func parse(_ text: String, original: String) throws(DerivationExpressionError) -> KeyValueExpression {
        if text == "now()" || text == "now" { return .function(.now, []) }
        if let (name, inner) = selectorCall(text) {
            guard let function = KeyValueExpression.Function(selector: name + ":") else {
                throw DerivationExpressionError(expression: original, message: "unknown function '\(name):'")
            }
            return .function(function, [try parse(inner.trimmingCharacters(in: .whitespaces), original: original)])
        }
        var source = text
        // `items.price.@sum` (an operator after the key) reads as `items.@sum.price`.
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count >= 3, let last = parts.last, trailingOperators.contains(last) {
            source = (parts.dropLast(2) + [last, parts[parts.count - 2]]).joined(separator: ".")
        }
        do {
            return try KeyValueExpression(format: source)
        } catch {
            throw DerivationExpressionError(expression: original, message: error.localizedDescription)
        }
    }
}

/// A derivation expression that does not parse.
///
/// - Important: Thread safety: a `Sendable` value.
public struct DerivationExpressionError: Error, Sendable, Hashable, LocalizedError {
    /// The expression as written.
    public var expression: String
    /// What is wrong with it.
    public var message: String

    /// Creates an error.
    public init(expression: String, message: String) {
        self.expression = expression
        self.message = message
    }

    /// "the derivation expression '…' does not parse: …".
    public var errorDescription: String? { "the derivation expression '\(expression)' does not parse: \(message)" }
}

extension AttributeDescription {
    /// The parsed ``derivationExpression``, or `nil` for an attribute that is not derived.
    ///
    /// - Throws: ``DerivationExpressionError`` when the text does not parse (a model built by
    ///   ``ManagedObjectModel`` has already refused it with
    ///   ``ManagedObjectModelError/Code/invalidPredicate(_:)``).
    public func parsedDerivationExpression() throws(DerivationExpressionError) -> DerivationExpression? {
        try derivationExpression.map { text throws(DerivationExpressionError) in try DerivationExpression(text) }
    }

    /// The derived attribute's value for `object`, converted to the attribute's type when it
    /// fits (an `@count` for an Integer 64 attribute is an `Int64`); the context computes it at
    /// save (Apple: derived attributes are computed when the object is saved).
    ///
    /// - Parameter object: The object, read through key-value coding.
    /// - Returns: The value, or `nil` for an attribute that is not derived or a path reaching
    ///   `nil`.
    /// - Throws: ``DerivationExpressionError`` for an expression that does not parse, and the
    ///   Predicates layer's evaluation errors.
    public func derivedValue(for object: Any) throws -> Any? {
        guard let expression = try parsedDerivationExpression() else { return nil }
        guard let value = unwrappedAttributeValue(try expression.value(for: object)) else { return nil }
        if case .some(.some(let typed)) = typedValue(from: KeyValueConstant(value)) { return typed }
        return value
    }
}

extension DerivationExpression {
    /// The first keys of the key paths the expression reads from the object (`items` for
    /// `items.@sum.price`), in order of appearance, without repeats.
    public var rootKeys: [String] {
        var keys: [String] = []
        Self.collectRootKeys(expression, into: &keys)
        return keys
    }

    private static func collectRootKeys(_ expression: KeyValueExpression, into keys: inout [String]) {
        switch expression {
        case .keyPath(let path):
            let first = String(path.prefix { $0 != "." })
            if !first.isEmpty, !first.hasPrefix("@"), !keys.contains(first) { keys.append(first) }
        case .keyPathOf(let operand, _):
            collectRootKeys(operand, into: &keys)
        case .aggregate(let elements), .function(_, let elements):
            for element in elements { collectRootKeys(element, into: &keys) }
        case .subquery(let collection, _, _):
            collectRootKeys(collection, into: &keys)
        case .conditional(_, let whenTrue, let whenFalse):
            collectRootKeys(whenTrue, into: &keys)
            collectRootKeys(whenFalse, into: &keys)
        case .index(let collection, let index):
            collectRootKeys(collection, into: &keys)
            collectRootKeys(index, into: &keys)
        case .setOperation(let left, _, let right):
            collectRootKeys(left, into: &keys)
            collectRootKeys(right, into: &keys)
        case .evaluatedObject, .constant, .variable, .indexSymbol:
            break
        }
    }
}
