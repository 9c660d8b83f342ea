// Which parts of a fetch a store's rows can answer: predicates and sort keys that read only the
// fetched object's own saved attributes.
import Foundation
import Predicates

/// The keys a predicate or a list of sort descriptors reads, when each is one key of the
/// evaluated object itself.
///
/// A store can evaluate such a predicate on its rows (the rows hold the saved attribute values),
/// and a context can trust the store's verdict for an object whose values are the row's. Anything
/// that reads further (a key path through a relationship, `SELF`, a variable, a subquery, a
/// block, a managed object constant) has no ``ownKeys(of:)``: the context then evaluates the
/// predicate over the objects, as for a store that applies nothing.
package enum FetchScope {
    /// The keys `predicate` reads, or `nil` when it reads anything but single keys of the
    /// evaluated object.
    ///
    /// - Complexity: O(*n*) in the size of the predicate tree.
    package static func ownKeys(of predicate: KeyValuePredicate) -> Set<String>? {
        var keys: Set<String> = []
        return collect(predicate, into: &keys) ? keys : nil
    }

    /// The keys `descriptors` sort by, or `nil` when one sorts by `SELF` (no key) or by a key
    /// path through another object.
    package static func ownKeys(of descriptors: [KeyValueSortDescriptor]) -> Set<String>? {
        var keys: Set<String> = []
        for descriptor in descriptors {
            guard let key = descriptor.key, isOwnKey(key) else { return nil }
            keys.insert(key)
        }
        return keys
    }

    /// The names of the saved (non-transient) attributes that every one of `entities` has.
    package static func storedAttributeNames(of entities: [EntityDescription]) -> Set<String> {
        var common: Set<String>?
        for entity in entities {
            var names: Set<String> = []
            for property in entity.allProperties {
                if case .attribute(let attribute) = property, !attribute.isTransient { names.insert(attribute.name) }
            }
            common = common.map { $0.intersection(names) } ?? names
        }
        return common ?? []
    }

    /// Whether `key` names one key of the object (no dots, no collection operator).
    private static func isOwnKey(_ key: String) -> Bool {
        !key.isEmpty && !key.contains(".") && !key.hasPrefix("@")
    }

    private static func collect(_ predicate: KeyValuePredicate, into keys: inout Set<String>) -> Bool {
        switch predicate.kind {
        case .constant:
            return true
        case .block:
            return false
        case .comparison(let comparison):
            return collect(comparison.leftExpression, into: &keys) && collect(comparison.rightExpression, into: &keys)
        case .and(let list), .or(let list):
            return list.allSatisfy { collect($0, into: &keys) }
        case .not(let inner):
            return collect(inner, into: &keys)
        }
    }

    private static func collect(_ expression: KeyValueExpression, into keys: inout Set<String>) -> Bool {
        switch expression {
        case .constant(let constant):
            if case .object = constant { return false }
            return true
        case .keyPath(let path):
            guard isOwnKey(path) else { return false }
            keys.insert(path)
            return true
        case .indexSymbol:
            return true
        case .evaluatedObject, .keyPathOf, .variable, .subquery:
            return false
        case .aggregate(let list), .function(_, let list):
            return list.allSatisfy { collect($0, into: &keys) }
        case let .conditional(predicate, whenTrue, whenFalse):
            return collect(predicate, into: &keys) && collect(whenTrue, into: &keys) && collect(whenFalse, into: &keys)
        case let .index(a, b), let .setOperation(a, _, b):
            return collect(a, into: &keys) && collect(b, into: &keys)
        }
    }
}
