import Foundation

/// A dictionary seen by key-value coding: a Swift `Dictionary` (of any key type; `String` and
/// `AnyHashable` keys match a key by its text) or an `NSDictionary`.
///
/// As `-[NSDictionary valueForKey:]` does, a key looks up the entry, except that a key starting
/// with `@` names a property of the dictionary itself (`@count`, `@allKeys`, `@allValues`,
/// `@description`, `@self`). As `-[NSMutableDictionary setValue:forKey:]` does, setting a key
/// stores the entry and setting `nil` removes it.
///
/// Part of the collection views that every layer shares (with ``KeyValueCollection``); find the
/// view of a value held in an `Any` with ``keyValueDictionary(of:)``.
package protocol KeyValueDictionary {
    /// The number of entries.
    var keyValueCount: Int { get }
    /// The entry for `key` (optional values flattened), or nil.
    func keyValueLookUp(_ key: String) -> Any?
    /// The keys, in the dictionary's order.
    var keyValueAllKeys: [Any] { get }
    /// The values, in the dictionary's order (`nil` values left out, as a Foundation
    /// dictionary cannot hold them).
    var keyValueAllValues: [Any] { get }
    /// The entries, in the dictionary's order: each key as it is, each value with nested
    /// optionals flattened (a `nil` value is `nil`).
    ///
    /// - Complexity: O(n).
    var keyValueEntries: [(key: Any, value: Any?)] { get }
    /// The entry whose key equals `key` by the dictionary's own key equality (no conversion
    /// between key types beyond a cast), optionals flattened; `.none` when there is none.
    ///
    /// - Complexity: O(1) on average.
    func keyValueEntry(forKey key: Any) -> Any??
    /// Stores `value` for `key`, or removes the entry when `value` is nil.
    ///
    /// - Returns: The changed dictionary when the dictionary is a value (a Swift `Dictionary`),
    ///   which the caller must store back where it came from; nil when the dictionary was
    ///   changed in place (an `NSMutableDictionary`).
    /// - Throws: ``KeyValueCodingError/typeMismatch(key:type:expected:actual:)`` for a value
    ///   or key the dictionary cannot hold, ``KeyValueCodingError/undefinedKey(_:type:)`` for an
    ///   immutable `NSDictionary` or an `@` key.
    func keyValueSetting(_ value: Any?, forKey key: String) throws -> Any?
}

extension KeyValueDictionary {
    /// The value of `key`: its entry, or for a key starting with `@`, a property of the
    /// dictionary (Apple: `-[NSDictionary valueForKey:]`).
    func keyValueValue(forKey key: String) throws -> Any? {
        guard key.utf8.first == UInt8(ascii: "@") else { return keyValueLookUp(key) }
        switch key {
        case "@count": return keyValueCount
        case "@allKeys": return keyValueAllKeys
        case "@allValues": return keyValueAllValues
        case "@description": return String(describing: self)
        case "@self": return self
        default: throw KeyValueCodingError.undefinedKey(key, type: typeName(type(of: self)))
        }
    }
}

extension Dictionary: KeyValueDictionary {
    package var keyValueCount: Int { count }
    package var keyValueAllKeys: [Any] { keys.map { $0 } }
    package var keyValueAllValues: [Any] { values.compactMap { flattenOptional($0) } }
    package var keyValueEntries: [(key: Any, value: Any?)] {
        map { (key: $0.key as Any, value: flattenedElement($0.value)) }
    }

    package func keyValueEntry(forKey key: Any) -> Any?? {
        guard let typed = castWithoutBridging(key, to: Key.self), let value = self[typed] else { return .none }
        return .some(flattenedElement(value))
    }

    package func keyValueLookUp(_ key: String) -> Any? {
        guard let dictionaryKey = Self.dictionaryKey(key) else { return nil }
        return flattenOptional(self[dictionaryKey])
    }

    package func keyValueSetting(_ value: Any?, forKey key: String) throws -> Any? {
        guard key.utf8.first != UInt8(ascii: "@") else {
            throw KeyValueCodingError.undefinedKey(key, type: typeName(Self.self))
        }
        guard let dictionaryKey = Self.dictionaryKey(key) else {
            throw KeyValueCodingError.typeMismatch(key: key, type: typeName(Self.self), expected: typeName(Key.self),
                                                   actual: typeName(String.self))
        }
        var changed = self
        guard let value = flattenOptional(value) else {
            changed.removeValue(forKey: dictionaryKey)
            return changed
        }
        changed[dictionaryKey] = try Self.entry(value, forKey: key)
        return changed
    }

    /// `key` as a key of this dictionary: itself for `String` keys, wrapped for `AnyHashable`
    /// keys, otherwise converted when the key type accepts a string (nil when it does not).
    private static func dictionaryKey(_ key: String) -> Key? {
        if Key.self == String.self { return unsafeBitCast(key, to: Key.self) }
        if Key.self == AnyHashable.self { return unsafeBitCast(AnyHashable(key), to: Key.self) }
        return key as? Key
    }

    /// `value` as an entry: as it is, or by numeric bridging into a numeric value type.
    private static func entry(_ value: Any, forKey key: String) throws -> Value {
        if let typed = castWithoutBridging(value, to: Value.self) { return typed }
        if let numericType = Value.self as? any KeyValueNumeric.Type, let number = KeyValueNumber(value) {
            guard let converted = numericType.init(bridging: number) else {
                throw KeyValueCodingError.valueOutOfRange(key: key, type: typeName(Self.self),
                                                          value: String(describing: value))
            }
            return converted as! Value
        }
        throw KeyValueCodingError.typeMismatch(key: key, type: typeName(Self.self), expected: typeName(Value.self),
                                               actual: typeName(type(of: value)))
    }
}

extension NSDictionary: KeyValueDictionary {
    package var keyValueCount: Int { count }
    package var keyValueAllKeys: [Any] { allKeys }
    package var keyValueAllValues: [Any] { allValues }
    package var keyValueEntries: [(key: Any, value: Any?)] {
        map { (key: $0.key, value: flattenOptional($0.value)) }
    }

    package func keyValueEntry(forKey key: Any) -> Any?? {
        // A Swift collection is never a key here, and asking would bridge it.
        guard !isSwiftCollection(type(of: key)), let hashable = key as? AnyHashable,
              let value = self[hashable] else { return .none }
        return .some(flattenOptional(value))
    }

    package func keyValueLookUp(_ key: String) -> Any? {
        flattenOptional(object(forKey: key))
    }

    package func keyValueSetting(_ value: Any?, forKey key: String) throws -> Any? {
        guard let mutable = self as? NSMutableDictionary, key.utf8.first != UInt8(ascii: "@") else {
            throw KeyValueCodingError.undefinedKey(key, type: typeName(type(of: self)))
        }
        guard let value = flattenOptional(value) else {
            mutable.removeObject(forKey: key)
            return nil
        }
        let kind = ValueKind.of(type(of: value))
        if kind.category == .collection, !kind.isClass, kind.collection?(value).keyValueIsUnordered == true {
            // Foundation would bridge the set into an `NSSet`, which recurses without end on
            // Linux for some members (`Decimal`).
            throw KeyValueCodingError.typeMismatch(
                key: key, type: typeName(type(of: self)), expected: "a value Foundation can hold",
                actual: "\(typeName(type(of: value))) (a Swift set; store it in a Swift dictionary)")
        }
        mutable.setObject(value, forKey: key as NSString)
        return nil
    }
}
