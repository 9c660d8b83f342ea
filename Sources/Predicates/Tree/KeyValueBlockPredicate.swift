// Block predicates: a Swift closure as a predicate (Apple: NSPredicate(block:)).
import Foundation

/// The closure of a block predicate, with the substitution variables bound to it
/// (Apple: `NSBlockPredicate`).
///
/// Two block predicates are equal when they come from the same ``KeyValuePredicate/init(block:)``
/// call (copies of one predicate) and have equal bound variables; two calls with the same
/// closure give unequal predicates, since closures cannot be compared.
///
/// A block predicate can only be evaluated in memory: it can never be translated into another
/// language such as SQL (see ``KeyValuePredicate/isTranslatable``).
public struct KeyValueBlockPredicate: Sendable, Hashable {
    /// Gives each block predicate its identity (and its address in `BLOCKPREDICATE(0x…)`).
    final class Identity: Sendable {
        let body: @Sendable (Any?, [String: Any]?) -> Bool
        init(_ body: @escaping @Sendable (Any?, [String: Any]?) -> Bool) { self.body = body }
    }

    let identity: Identity
    /// The variables bound by ``KeyValuePredicate/withSubstitutionVariables(_:)``, passed to
    /// the closure when an evaluation binds none; nil when none were bound.
    public let boundVariables: [String: KeyValueConstant]?

    init(_ body: @escaping @Sendable (Any?, [String: Any]?) -> Bool) {
        identity = Identity(body)
        boundVariables = nil
    }

    init(identity: Identity, boundVariables: [String: KeyValueConstant]?) {
        self.identity = identity
        self.boundVariables = boundVariables
    }

    /// Calls the closure.
    ///
    /// - Parameters:
    ///   - object: The evaluated object.
    ///   - bindings: The substitution variables of the evaluation, or nil.
    /// - Returns: The closure's answer.
    public func evaluate(with object: Any?, bindings: [String: Any]?) -> Bool {
        identity.body(object, bindings ?? boundVariables.map { $0.mapValues { $0.anyValue ?? NSNull() } })
    }

    /// `BLOCKPREDICATE(0x…)`, with the address that identifies the closure, as Apple writes it.
    public var predicateFormat: String {
        "BLOCKPREDICATE(0x" + String(UInt(bitPattern: ObjectIdentifier(identity)), radix: 16) + ")"
    }

    public static func == (lhs: KeyValueBlockPredicate, rhs: KeyValueBlockPredicate) -> Bool {
        lhs.identity === rhs.identity && lhs.boundVariables == rhs.boundVariables
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(identity))
    }
}

extension KeyValuePredicate {
    /// Creates a predicate that calls a closure (Apple: `NSPredicate(block:)`).
    ///
    /// The closure gets the evaluated object and the substitution variables of the evaluation
    /// (those of ``evaluate(with:substitutionVariables:)``, or those bound earlier with
    /// ``withSubstitutionVariables(_:)``; nil when there are none). A variable bound to `nil`
    /// appears as `NSNull`, as in Apple's bindings dictionary.
    ///
    /// ```swift
    /// let short = KeyValuePredicate { object, _ in (object as? String)?.count ?? 0 < 4 }
    /// try ["Ada", "Grace"].filtered(using: short)   // ["Ada"]
    /// short.predicateFormat                         // BLOCKPREDICATE(0x…)
    /// ```
    ///
    /// A block predicate can never be translated to SQL: ``isTranslatable`` is false for any
    /// predicate that contains one, and a store must evaluate it in memory.
    ///
    /// - Parameter block: The test. It must be safe to call from any thread.
    public init(block: @escaping @Sendable (Any?, [String: Any]?) -> Bool) {
        self.init(.block(KeyValueBlockPredicate(block)))
    }
}
