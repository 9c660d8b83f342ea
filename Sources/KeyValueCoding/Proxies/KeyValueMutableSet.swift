import Foundation

extension KeyValueCodable {
    /// Returns a proxy that edits the set property `key` in place.
    ///
    /// Each edit sends the unordered to-many notifications
    /// (`willChangeValue(forKey:withSetMutation:using:)` and its `did` pair) with the objects
    /// involved.
    ///
    /// - Parameter key: The key of a stored or computed property whose type is a `Set`.
    /// - Returns: The proxy. It holds the object strongly.
    /// - Throws: what ``value(forUndefinedKey:)`` throws for an unknown key (by default
    ///   ``KeyValueCodingError/undefinedKey(_:type:)``) and
    ///   ``KeyValueCodingError/invalidCollectionAccess(key:type:reason:)`` when the property is
    ///   not a set.
    ///
    /// Corresponds to `-[NSObject mutableSetValueForKey:]`.
    public func mutableSetValue(forKey key: String) throws -> KeyValueMutableSet {
        let property = try toManyProperty(forKey: key)
        guard setMemberType(of: property.valueType) != nil else {
            throw KeyValueCodingError.invalidCollectionAccess(
                key: key, type: typeName(type(of: self)), reason: "the property is not a set")
        }
        return KeyValueMutableSet(object: self, property: property)
    }
}

/// A live, editable view of an object's set property (Apple: the proxy that
/// `mutableSetValueForKey:` returns, an `NSMutableSet`).
///
/// Every edit sends set-mutation notifications for its key (see
/// ``KeyValueCodable/mutableSetValue(forKey:)``). A proxy from
/// ``KeyValueCodable/mutableSetValue(forKeyPath:)`` whose path reaches a dictionary edits the
/// entry for its last key instead: each edit sets the changed dictionary back into the property
/// holding it (a setting notification for that property), and the first insertion creates a
/// missing entry.
///
/// Thread safety: not thread-safe; use it where you would use the object.
public final class KeyValueMutableSet {
    /// The object whose property this proxy edits.
    public let object: any KeyValueCodable
    /// The key of the property (for a proxy on a dictionary entry, the entry's key).
    public let key: String
    private let backing: Backing

    /// Where the set lives: in a property of the object, or at a key path from it (an entry
    /// of a dictionary, read and set back through the key path).
    private enum Backing {
        case property(KeyValueProperty)
        case entry(keyPath: String)
    }

    init(object: any KeyValueCodable, property: KeyValueProperty) {
        self.object = object
        key = property.key
        backing = .property(property)
    }

    init(object: any KeyValueCodable, entryAt keyPath: String, key: String) {
        self.object = object
        self.key = key
        backing = .entry(keyPath: keyPath)
    }

    /// The current value of the property or entry.
    private var currentValue: Any? {
        switch backing {
        case .property(let property): return property.value(of: object)
        case .entry(let keyPath): return try? KeyValue.value(forKeyPath: keyPath, of: object)
        }
    }

    /// The property's current members.
    public var members: Set<AnyHashable> {
        guard let value = currentValue else { return [] }
        return setMembers(of: value) ?? []
    }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether `member` is in the set.
    public func contains(_ member: AnyHashable) -> Bool { members.contains(member) }

    /// Adds `member` (a union notification, sent even when it was already a member).
    /// - Throws: ``KeyValueCodingError/typeMismatch(key:type:expected:actual:)`` for a member
    ///   of the wrong type.
    public func insert(_ member: AnyHashable) throws {
        try union([member])
    }

    /// Removes `member` (a minus notification).
    public func remove(_ member: AnyHashable) throws {
        try subtract([member])
    }

    /// Adds every element of `other`, any sequence of hashable values (Apple: `unionSet:`).
    public func union<Other: Sequence>(_ other: Other) throws where Other.Element: Hashable {
        let other = Self.hashableSet(other)
        try apply(.union, other, members.union(other))
    }

    /// Removes every element of `other` (Apple: `minusSet:`).
    public func subtract<Other: Sequence>(_ other: Other) throws where Other.Element: Hashable {
        let other = Self.hashableSet(other)
        try apply(.minus, other, members.subtracting(other))
    }

    /// Keeps only the members also in `other` (Apple: `intersectSet:`).
    public func formIntersection<Other: Sequence>(_ other: Other) throws where Other.Element: Hashable {
        let other = Self.hashableSet(other)
        try apply(.intersect, other, members.intersection(other))
    }

    /// Replaces the members with the elements of `other` (Apple: `setSet:`).
    public func replaceAll<Other: Sequence>(with other: Other) throws where Other.Element: Hashable {
        let other = Self.hashableSet(other)
        try apply(.set, other, other)
    }

    /// `elements` as a set of `AnyHashable` (itself when it already is one).
    private static func hashableSet<Other: Sequence>(_ elements: Other) -> Set<AnyHashable> where Other.Element: Hashable {
        if let set = elements as? Set<AnyHashable> { return set }
        return Set(elements.map { AnyHashable($0) })
    }

    /// Removes every member.
    public func removeAll() throws {
        try replaceAll(with: Set<AnyHashable>())
    }

    private func apply(_ mutation: KeyValueSetMutationKind, _ objects: Set<AnyHashable>,
                       _ result: Set<AnyHashable>) throws {
        switch backing {
        case .property(let property):
            let converted = try convertedSet(result, as: property.valueType)
            if case .set(let mutators)? = property.toManyMutators {
                // Member by member through the declared mutators, each its own notified change
                // (removals, then additions); a refusal cancels that member's change and stops.
                let current = members
                for member in current.subtracting(result) {
                    try object.changingMembers(.minus, [member], forKey: key) { try mutators.remove(object, member) }
                }
                for member in result.subtracting(current) {
                    try object.changingMembers(.union, [member], forKey: key) { try mutators.add(object, member) }
                }
                return
            }
            try object.changingMembers(mutation, objects, forKey: key) {
                try property.setValue(converted, on: object, notify: false)
            }
        case .entry(let keyPath):
            // Set back through the path: the property holding the dictionary is set, and its
            // observers are told. A set already in the entry keeps its member type.
            let current = try KeyValue.value(forKeyPath: keyPath, of: object)
            var setType: Any.Type = Set<AnyHashable>.self
            if let current {
                guard setMembers(of: current) != nil else {
                    throw KeyValueCodingError.invalidCollectionAccess(
                        key: key, type: typeName(type(of: object)),
                        reason: "the value at '\(keyPath)' is not a set (its type is \(typeName(type(of: current))))")
                }
                setType = type(of: current)
            }
            try KeyValue.setValue(try convertedSet(result, as: setType), forKeyPath: keyPath, of: object)
        }
    }

    private func convertedSet(_ result: Set<AnyHashable>, as valueType: Any.Type) throws -> Any {
        guard setMemberType(of: valueType) != nil else { return result }
        guard let converted = try makeSet(from: result, as: valueType, key: key, owner: object) else {
            throw KeyValueCodingError.typeMismatch(
                key: key, type: typeName(type(of: object)), expected: typeName(valueType),
                actual: "a set holding nil")
        }
        return converted
    }
}
