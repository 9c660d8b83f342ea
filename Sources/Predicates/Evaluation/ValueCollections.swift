// Reading the elements of collection values (arrays, sets, dictionaries, Foundation types).
import Foundation
import KeyValueCoding

/// A value the evaluator treats as a collection of elements.
protocol PredicateCollectionValue {
    /// The elements, optionals flattened and `NSNull` read as nil. Dictionaries give their
    /// values, as `NSDictionary`'s `objectEnumerator` does.
    var predicateElements: [Any?] { get }
}

extension Array: PredicateCollectionValue {
    var predicateElements: [Any?] { map { ValueEquality.normalize(ValueEquality.box($0)) } }
}

extension ContiguousArray: PredicateCollectionValue {
    var predicateElements: [Any?] { map { ValueEquality.normalize(ValueEquality.box($0)) } }
}

extension ArraySlice: PredicateCollectionValue {
    var predicateElements: [Any?] { map { ValueEquality.normalize(ValueEquality.box($0)) } }
}

extension Set: PredicateCollectionValue {
    /// Objects that key-value coding put in a set by identity come back unwrapped.
    var predicateElements: [Any?] {
        if Element.self == AnyHashable.self {
            // Sets built by set expressions and constants: unwrap the `AnyHashable` boxes (and
            // the constants standing for values that are not `Hashable`).
            return map { element in
                let base = (element as AnyHashable).base
                if let constant = base as? KeyValueConstant { return constant.anyValue }
                return ValueEquality.normalize(base)
            }
        }
        return map { element in
            if let identity = (element as Any) as? ObjectIdentity { return identity.object }
            return ValueEquality.normalize(ValueEquality.box(element))
        }
    }
}

extension Dictionary: PredicateCollectionValue {
    var predicateElements: [Any?] { values.map { ValueEquality.normalize(ValueEquality.box($0)) } }
}

extension NSArray: PredicateCollectionValue {
    var predicateElements: [Any?] { map { ValueEquality.normalize($0) } }
}

extension NSSet: PredicateCollectionValue {
    var predicateElements: [Any?] { map { ValueEquality.normalize($0) } }
}

extension NSOrderedSet: PredicateCollectionValue {
    var predicateElements: [Any?] { map { ValueEquality.normalize($0) } }
}

extension NSDictionary: PredicateCollectionValue {
    var predicateElements: [Any?] { allValues.map { ValueEquality.normalize($0) } }
}

/// A collection without an order (sets), compared as sets are.
///
/// A marker protocol rather than `is NSSet`: casting a Swift array to a class makes the
/// runtime bridge the whole array (every nested level) first.
protocol PredicateUnorderedValue {}
extension Set: PredicateUnorderedValue {}
extension NSSet: PredicateUnorderedValue {}

enum ValueCollections {
    /// The elements of `value`, or nil when it is not a collection. Strings are not
    /// collections here.
    static func elements(of value: Any?) -> [Any?]? {
        guard let value else { return nil }
        if value is String { return nil }
        return (value as? any PredicateCollectionValue)?.predicateElements
    }

    /// Whether `value` is a collection (strings are not).
    static func isCollection(_ value: Any?) -> Bool {
        guard let value, !(value is String) else { return false }
        return value is any PredicateCollectionValue
    }

    /// The elements of `value`, or a thrown error naming `operation`.
    static func requireElements(of value: Any?, for operation: String) throws(PredicateEvaluationError) -> [Any?] {
        if let elements = elements(of: value) { return elements }
        throw .notACollection(operation: operation, valueType: typeDescription(value))
    }

    /// The type of a value as shown in error messages.
    static func typeDescription(_ value: Any?) -> String {
        guard let value else { return "nil" }
        return String(describing: type(of: value))
    }
}
