import Foundation

extension KeyValueCodable {
    /// Validates a value for the last key of `keyPath`, on the object the rest of the path
    /// reaches.
    ///
    /// As Apple's default does, only a ``KeyValueCodable`` object at the end of the path can
    /// reject or replace the value (through ``validateValue(_:forKey:)``); anything else (a
    /// dictionary, a collection, `NSNull`, a plain value) accepts it unchanged, as does a path
    /// that stops at `nil`.
    ///
    /// - Parameters:
    ///   - value: The proposed value; a validator may replace it.
    ///   - keyPath: A dot-separated key path without collection operators.
    /// - Throws: ``KeyValueCodingError/validationFailed(key:type:reason:)`` when the value is
    ///   rejected, and the errors of ``value(forKeyPath:)`` for the keys before the last.
    ///
    /// Corresponds to `-[NSObject validateValue:forKeyPath:error:]`.
    public func validateValue(_ value: inout Any?, forKeyPath keyPath: String) throws {
        let (head, last) = try KeyValue.splitLast(keyPath)
        guard let head else {
            try validateValue(&value, forKey: last)
            return
        }
        guard let reached = try self.value(forKeyPath: String(head)),
              let object = ValueKind.of(type(of: reached)).codableObject?(reached) else { return }
        try object.validateValue(&value, forKey: last)
    }

    /// Returns a proxy that edits the array at the end of `keyPath` in place.
    ///
    /// When the path reaches an object, this is its ``mutableArrayValue(forKey:)`` for the last
    /// key. When it reaches a dictionary, the proxy edits the entry for the last key: a missing
    /// entry reads as empty and is created by the first insertion, and each edit sets the
    /// changed dictionary back into the property that holds it (through the normal setter, so
    /// its observers are told; no to-many notifications are sent for the entry).
    ///
    /// - Parameter keyPath: A dot-separated key path without collection operators whose last
    ///   key names an array property or a dictionary entry.
    /// - Returns: The proxy.
    /// - Throws: The errors of ``value(forKeyPath:)`` and ``mutableArrayValue(forKey:)``;
    ///   ``KeyValueCodingError/invalidCollectionAccess(key:type:reason:)`` when a key along the
    ///   way gives `nil`; ``KeyValueCodingError/undefinedKey(_:type:)`` when the path reaches
    ///   something else.
    ///
    /// Corresponds to `-[NSObject mutableArrayValueForKeyPath:]`.
    public func mutableArrayValue(forKeyPath keyPath: String) throws -> KeyValueMutableArray {
        switch try toManyTarget(of: keyPath) {
        case .object(let object, let key): return try object.mutableArrayValue(forKey: key)
        case .entry(let key): return KeyValueMutableArray(object: self, entryAt: keyPath, key: key)
        }
    }

    /// Returns a proxy that edits the set at the end of `keyPath` in place.
    ///
    /// When the path reaches an object, this is its ``mutableSetValue(forKey:)`` for the last
    /// key. When it reaches a dictionary, the proxy edits the entry for the last key, as
    /// ``mutableArrayValue(forKeyPath:)`` does.
    ///
    /// - Parameter keyPath: A dot-separated key path without collection operators whose last
    ///   key names a set property or a dictionary entry.
    /// - Returns: The proxy.
    /// - Throws: The errors of ``value(forKeyPath:)`` and ``mutableSetValue(forKey:)``;
    ///   ``KeyValueCodingError/invalidCollectionAccess(key:type:reason:)`` when a key along the
    ///   way gives `nil`; ``KeyValueCodingError/undefinedKey(_:type:)`` when the path reaches
    ///   something else.
    ///
    /// Corresponds to `-[NSObject mutableSetValueForKeyPath:]`.
    public func mutableSetValue(forKeyPath keyPath: String) throws -> KeyValueMutableSet {
        switch try toManyTarget(of: keyPath) {
        case .object(let object, let key): return try object.mutableSetValue(forKey: key)
        case .entry(let key): return KeyValueMutableSet(object: self, entryAt: keyPath, key: key)
        }
    }

    /// What all but the last key of `keyPath` reach: an object (with the last key), or a
    /// dictionary whose entry for the last key a proxy edits.
    private func toManyTarget(of keyPath: String) throws -> ToManyTarget {
        let (head, last) = try KeyValue.splitLast(keyPath)
        guard let head else { return .object(self, last) }
        guard let reached = try value(forKeyPath: String(head)) else {
            throw KeyValueCodingError.invalidCollectionAccess(
                key: keyPath, type: typeName(type(of: self)), reason: "a key along the path gives nil")
        }
        let kind = ValueKind.of(type(of: reached))
        if let object = kind.codableObject?(reached) { return .object(object, last) }
        if kind.category == .dictionary { return .entry(last) }
        throw KeyValueCodingError.undefinedKey(last, type: typeName(type(of: reached)))
    }
}

/// Where a to-many key path leads.
private enum ToManyTarget {
    case object(any KeyValueCodable, String)
    case entry(String)
}
