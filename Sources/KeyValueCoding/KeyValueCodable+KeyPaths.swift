import Foundation

extension KeyValueCodable {
    /// Validates a value for the last key of `keyPath`, on the object the rest of the path
    /// reaches.
    ///
    /// - Parameters:
    ///   - value: The proposed value; a validator may replace it.
    ///   - keyPath: A dot-separated key path without collection operators.
    /// - Throws: ``KeyValueCodingError/validationFailed(key:type:reason:)`` when the value is
    ///   rejected, and the errors of ``value(forKeyPath:)`` for the path. When a key along the
    ///   way gives `nil`, there is nothing to validate and the value is accepted.
    ///
    /// Corresponds to `-[NSObject validateValue:forKeyPath:error:]`.
    public func validateValue(_ value: inout Any?, forKeyPath keyPath: String) throws {
        guard let (object, key) = try objectAndLastKey(of: keyPath) else { return }
        try object.validateValue(&value, forKey: key)
    }

    /// Returns a proxy that edits the array property at the end of `keyPath` in place.
    ///
    /// - Parameter keyPath: A dot-separated key path without collection operators whose last
    ///   key names an array property.
    /// - Returns: The proxy of ``mutableArrayValue(forKey:)`` on the object the path reaches.
    /// - Throws: The errors of ``value(forKeyPath:)`` and ``mutableArrayValue(forKey:)``;
    ///   ``KeyValueCodingError/invalidCollectionAccess(key:type:reason:)`` when a key along the
    ///   way gives `nil`.
    ///
    /// Corresponds to `-[NSObject mutableArrayValueForKeyPath:]`.
    public func mutableArrayValue(forKeyPath keyPath: String) throws -> KeyValueMutableArray {
        let (object, key) = try requiredObjectAndLastKey(of: keyPath)
        return try object.mutableArrayValue(forKey: key)
    }

    /// Returns a proxy that edits the set property at the end of `keyPath` in place.
    ///
    /// - Parameter keyPath: A dot-separated key path without collection operators whose last
    ///   key names a set property.
    /// - Returns: The proxy of ``mutableSetValue(forKey:)`` on the object the path reaches.
    /// - Throws: The errors of ``value(forKeyPath:)`` and ``mutableSetValue(forKey:)``;
    ///   ``KeyValueCodingError/invalidCollectionAccess(key:type:reason:)`` when a key along the
    ///   way gives `nil`.
    ///
    /// Corresponds to `-[NSObject mutableSetValueForKeyPath:]`.
    public func mutableSetValue(forKeyPath keyPath: String) throws -> KeyValueMutableSet {
        let (object, key) = try requiredObjectAndLastKey(of: keyPath)
        return try object.mutableSetValue(forKey: key)
    }

    /// The object that all but the last key of `keyPath` reach, and the last key; nil when a
    /// key along the way gives `nil`.
    private func objectAndLastKey(of keyPath: String) throws -> (any KeyValueCodable, String)? {
        let (head, last) = try KeyValue.splitLast(keyPath)
        guard let head else { return (self, last) }
        guard let reached = try value(forKeyPath: String(head)) else { return nil }
        guard let object = reached as? any KeyValueCodable else {
            throw KeyValueCodingError.undefinedKey(last, type: typeName(type(of: reached)))
        }
        return (object, last)
    }

    private func requiredObjectAndLastKey(of keyPath: String) throws -> (any KeyValueCodable, String) {
        guard let found = try objectAndLastKey(of: keyPath) else {
            throw KeyValueCodingError.invalidCollectionAccess(
                key: keyPath, type: typeName(type(of: self)), reason: "a key along the path gives nil")
        }
        return found
    }
}
