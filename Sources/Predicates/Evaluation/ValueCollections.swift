// Reading the elements of collection values (arrays, sets, dictionaries, Foundation types)
// through key-value coding's shared collection views.
import Foundation
import KeyValueCoding

enum ValueCollections {
    /// The elements of `value`, optionals flattened and `NSNull` read as nil, or nil when it is
    /// not a collection (strings are not). Dictionaries give their values, as `NSDictionary`'s
    /// `objectEnumerator` does.
    static func elements(of value: Any?) -> [Any?]? {
        guard let value else { return nil }
        if let collection = keyValueCollection(of: value) {
            var elements = collection.keyValueElements
            // Sets built by set expressions and constants hold constants standing for values
            // that are not `Hashable`.
            let unwrapConstants = type(of: value) == Set<AnyHashable>.self
            for index in elements.indices {
                guard let element = elements[index] else { continue }
                if ValueEquality.isNull(element) {
                    elements[index] = nil
                } else if unwrapConstants, let constant = element as? KeyValueConstant {
                    elements[index] = constant.anyValue
                }
            }
            return elements
        }
        if let dictionary = keyValueDictionary(of: value) {
            return dictionary.keyValueEntries.map { ValueEquality.droppingNull($0.value) }
        }
        return nil
    }

    /// Whether `value` is a collection or a dictionary (strings are not).
    static func isCollection(_ value: Any?) -> Bool {
        guard let value else { return false }
        return keyValueCollection(of: value) != nil || keyValueDictionary(of: value) != nil
    }

    /// Whether `value` is a collection without an order (a set), compared as sets are.
    static func isUnordered(_ value: Any) -> Bool {
        keyValueCollection(of: value)?.keyValueIsUnordered ?? false
    }

    /// Whether `value` is a dictionary.
    static func isDictionary(_ value: Any?) -> Bool {
        guard let value else { return false }
        return keyValueDictionary(of: value) != nil
    }

    /// The entries of the dictionary `value` (keys and values normalized), or nil when it is not
    /// a dictionary.
    static func entries(of value: Any) -> [(key: Any?, value: Any?)]? {
        guard let dictionary = keyValueDictionary(of: value) else { return nil }
        return dictionary.keyValueEntries.map { (ValueEquality.normalize($0.key), ValueEquality.droppingNull($0.value)) }
    }

    /// The value of the dictionary `dictionary` for `key`: a direct lookup when `key` has the
    /// dictionary's key type, then keys equal as predicate values (`4` finds the key `4.0`);
    /// `.none` when no key matches.
    static func value(in dictionary: any KeyValueDictionary, forKey key: Any?) -> Any?? {
        if let key, let value = dictionary.keyValueEntry(forKey: key) {
            return .some(ValueEquality.droppingNull(value))
        }
        for entry in dictionary.keyValueEntries
        where (try? ValueEquality.equal(ValueEquality.normalize(entry.key), key, options: [])) == true {
            return .some(ValueEquality.droppingNull(entry.value))
        }
        return .none
    }

    /// The elements of `value`, or a thrown error naming `operation`.
    static func requireElements(of value: Any?, for operation: String) throws(PredicateEvaluationError) -> [Any?] {
        if let elements = elements(of: value) { return elements }
        throw .notACollection(operation: operation, valueType: typeDescription(value))
    }

    /// The elements a qualifier (`ANY`, `ALL`, `NONE`) or `SUBQUERY` goes over: none for nil
    /// (or `NSNull`), as SQL finds no rows through a nil to-one (`ANY shelf.items.title == "x"`
    /// on an item with no shelf); the elements of a collection; a thrown error naming
    /// `operation` for any other value.
    static func qualifiedElements(of value: Any?, for operation: String) throws(PredicateEvaluationError) -> [Any?] {
        if let elements = elements(of: value) { return elements }
        // Only when the value is no collection: is it nil after all (NSNull, a nested optional)?
        guard ValueEquality.normalize(value) != nil else { return [] }
        throw .notACollection(operation: operation, valueType: typeDescription(value))
    }

    /// The type of a value as shown in error messages.
    static func typeDescription(_ value: Any?) -> String {
        guard let value else { return "nil" }
        return String(describing: type(of: value))
    }
}
