import Foundation

extension KeyValueCodable {
    /// Inserts `value` at `index` of the array property `key`, through the class's declared
    /// mutators when it has them, telling observers of the insertion.
    ///
    /// - Parameters:
    ///   - value: The new element.
    ///   - index: Its position, in `0...count`.
    ///   - key: An array property.
    /// - Throws: ``KeyValueCodingError`` for an unknown or read-only key, an index out of range
    ///   or an element of the wrong type; what a declared mutator throws to refuse it.
    ///
    /// Corresponds to `-[NSObject insertValue:atIndex:inPropertyWithKey:]`.
    public func insertValue(_ value: Any?, at index: Int, inPropertyWithKey key: String) throws {
        try mutableArrayValue(forKey: key).insert(value, at: index)
    }

    /// Adds `value` to the to-many property `key`: appended to an array, added to a set.
    ///
    /// - Parameters:
    ///   - value: The new element or member.
    ///   - key: An array or set property.
    /// - Throws: As ``insertValue(_:at:inPropertyWithKey:)``.
    ///
    /// Corresponds to `-[NSObject insertValue:inPropertyWithKey:]`.
    public func insertValue(_ value: Any?, inPropertyWithKey key: String) throws {
        if let set = try? mutableSetValue(forKey: key) {
            guard let member = value as? AnyHashable else {
                throw KeyValueCodingError.typeMismatch(key: key, type: typeName(type(of: self)),
                                                       expected: "a hashable member",
                                                       actual: value.map { typeName(type(of: $0)) } ?? "nil")
            }
            try set.insert(member)
            return
        }
        try mutableArrayValue(forKey: key).append(value)
    }

    /// Removes the element at `index` of the array property `key`, telling observers.
    ///
    /// - Parameters:
    ///   - index: The element's position.
    ///   - key: An array property.
    /// - Throws: As ``insertValue(_:at:inPropertyWithKey:)``.
    ///
    /// Corresponds to `-[NSObject removeValueAtIndex:fromPropertyWithKey:]`.
    public func removeValue(at index: Int, fromPropertyWithKey key: String) throws {
        try mutableArrayValue(forKey: key).remove(at: index)
    }

    /// Replaces the element at `index` of the array property `key` with `value`, telling
    /// observers.
    ///
    /// - Parameters:
    ///   - index: The element's position.
    ///   - key: An array property.
    ///   - value: The new element.
    /// - Throws: As ``insertValue(_:at:inPropertyWithKey:)``.
    ///
    /// Corresponds to `-[NSObject replaceValueAtIndex:inPropertyWithKey:withValue:]`.
    public func replaceValue(at index: Int, inPropertyWithKey key: String, with value: Any?) throws {
        try mutableArrayValue(forKey: key).replace(at: index, with: value)
    }
}
