import Foundation

extension KeyValueCodable {
    /// Returns a proxy that edits the array property `key` in place.
    ///
    /// Each edit reads the array, changes it, and stores it back without a whole-value
    /// notification; instead the proxy sends the to-many notifications
    /// (`willChange(.insertion, valuesAt:forKey:)`, `.removal`, `.replacement`) around the edit,
    /// with the indexes it touched, so observers learn exactly which elements changed.
    ///
    /// ```swift
    /// let movies = try theater.mutableArrayValue(forKey: "movies")
    /// try movies.insert(dune, at: 0)
    /// try movies.remove(at: 2)
    /// ```
    ///
    /// - Parameter key: The key of a stored or computed property whose type is an `Array`.
    /// - Returns: The proxy. It holds the object strongly.
    /// - Throws: what ``value(forUndefinedKey:)`` throws for an unknown key (by default
    ///   ``KeyValueCodingError/undefinedKey(_:type:)``) and
    ///   ``KeyValueCodingError/invalidCollectionAccess(key:type:reason:)`` when the property is
    ///   not an array.
    ///
    /// Corresponds to `-[NSObject mutableArrayValueForKey:]`.
    public func mutableArrayValue(forKey key: String) throws -> KeyValueMutableArray {
        let property = try toManyProperty(forKey: key)
        guard arrayElementType(of: property.valueType) != nil else {
            throw KeyValueCodingError.invalidCollectionAccess(
                key: key, type: typeName(type(of: self)),
                reason: "the property is not an array (its type is \(typeName(property.valueType)))")
        }
        return KeyValueMutableArray(object: self, property: property)
    }

    func toManyProperty(forKey key: String) throws -> KeyValueProperty {
        guard let property = KeyValueKeyTable.of(object: self).property(forKey: key) else {
            // The class's own error for the key first (a managed object names its entity).
            _ = try value(forUndefinedKey: key)
            throw KeyValueCodingError.undefinedKey(key, type: typeName(type(of: self)))
        }
        if property.isReadOnly {
            throw KeyValueCodingError.readOnlyKey(key, type: typeName(type(of: self)))
        }
        return property
    }
}

/// A live, editable view of an object's array property (Apple: the proxy that
/// `mutableArrayValueForKey:` returns, an `NSMutableArray`).
///
/// Reading goes to the property each time, so the proxy always shows the current elements.
/// Every edit sends to-many change notifications for its key (see
/// ``KeyValueCodable/mutableArrayValue(forKey:)``). A stored array property is edited in
/// place (an append costs what `Array.append` costs); other array properties are read, edited
/// and stored back.
///
/// A proxy from ``KeyValueCodable/mutableArrayValue(forKeyPath:)`` whose path reaches a
/// dictionary edits the entry for its last key instead: each edit sets the changed dictionary
/// back into the property holding it (a setting notification for that property, no to-many
/// notifications), and the first insertion creates a missing entry.
///
/// Thread safety: not thread-safe; use it where you would use the object.
public final class KeyValueMutableArray: RandomAccessCollection {
    /// The object whose property this proxy edits.
    public let object: any KeyValueCodable
    /// The key of the property (for a proxy on a dictionary entry, the entry's key).
    public let key: String
    private let editor: any ArrayEditing

    init(object: any KeyValueCodable, property: KeyValueProperty) {
        self.object = object
        key = property.key
        editor = makeArrayEditor(for: property)
    }

    /// A proxy on the array at `keyPath` from `object` (an entry of a dictionary), read and
    /// set back through the key path.
    init(object: any KeyValueCodable, entryAt keyPath: String, key: String) {
        self.object = object
        self.key = key
        editor = EntryArrayEditor(keyPath: keyPath)
    }

    /// The property's current elements (`nil` elements of an optional element type stay `nil`).
    public var elements: [Any?] { editor.elements(of: object) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { editor.count(of: object) }

    /// The element at `position`.
    public subscript(position: Int) -> Any? { editor.element(at: position, of: object) }

    /// Inserts `element` at `index` (0...count), sending an insertion notification.
    /// - Throws: ``KeyValueCodingError`` for an index out of range or an element of the wrong type.
    public func insert(_ element: Any?, at index: Int) throws {
        try checkIndex(index, limit: count + 1)
        try insert([element], at: IndexSet(integer: index))
    }

    /// Appends `element`, sending an insertion notification.
    /// - Throws: ``KeyValueCodingError`` for an element of the wrong type.
    public func append(_ element: Any?) throws {
        try insert(element, at: count)
    }

    /// Inserts `newElements` so that they end up at `indexes` (as `insertObjects:atIndexes:`).
    /// - Throws: ``KeyValueCodingError`` when the counts differ, an index is out of range, or
    ///   an element has the wrong type.
    public func insert(_ newElements: [Any?], at indexes: IndexSet) throws {
        guard newElements.count == indexes.count else {
            throw failure("\(newElements.count) elements for \(indexes.count) indexes")
        }
        guard !indexes.isEmpty else { return }
        let current = count
        guard fits(indexes, limit: current + newElements.count) else {
            throw failure("insertion indexes \(describe(indexes)) are out of range for \(current) elements")
        }
        try edit(.insertion, indexes, newElements)
    }

    /// Removes the element at `index`, sending a removal notification.
    /// - Throws: ``KeyValueCodingError`` for an index out of range.
    public func remove(at index: Int) throws {
        try checkIndex(index, limit: count)
        try remove(at: IndexSet(integer: index))
    }

    /// Removes the elements at `indexes`, sending one removal notification.
    /// - Throws: ``KeyValueCodingError`` for an index out of range.
    public func remove(at indexes: IndexSet) throws {
        guard !indexes.isEmpty else { return }
        let current = count
        guard fits(indexes, limit: current) else {
            throw failure("removal indexes \(describe(indexes)) are out of range for \(current) elements")
        }
        try edit(.removal, indexes, [])
    }

    /// Removes every element, sending one removal notification (none when already empty).
    public func removeAll() throws {
        let current = count
        guard current > 0 else { return }
        try remove(at: IndexSet(integersIn: 0..<current))
    }

    /// Replaces the element at `index`, sending a replacement notification.
    /// - Throws: ``KeyValueCodingError`` for an index out of range or an element of the wrong type.
    public func replace(at index: Int, with element: Any?) throws {
        try checkIndex(index, limit: count)
        try replace(at: IndexSet(integer: index), with: [element])
    }

    /// Replaces the elements at `indexes` with `newElements`, sending one replacement notification.
    /// - Throws: ``KeyValueCodingError`` when the counts differ, an index is out of range, or
    ///   an element has the wrong type.
    public func replace(at indexes: IndexSet, with newElements: [Any?]) throws {
        guard newElements.count == indexes.count else {
            throw failure("\(newElements.count) elements for \(indexes.count) indexes")
        }
        guard !indexes.isEmpty else { return }
        let current = count
        guard fits(indexes, limit: current) else {
            throw failure("replacement indexes \(describe(indexes)) are out of range for \(current) elements")
        }
        try edit(.replacement, indexes, newElements)
    }

    /// Moves the element at `source` to `destination` as a removal then an insertion (two
    /// notifications), as an `NSMutableArray` proxy does.
    /// - Throws: ``KeyValueCodingError`` for an index out of range.
    public func move(from source: Int, to destination: Int) throws {
        let current = count
        guard (0..<current).contains(source), (0..<current).contains(destination) else {
            throw failure("cannot move from \(source) to \(destination) in \(current) elements")
        }
        let element = self[source]
        try remove(at: source)
        try insert(element, at: destination)
    }

    private func edit(_ change: KeyValueChangeKind, _ indexes: IndexSet, _ newElements: [Any?]) throws {
        try editor.edit(change, at: indexes, with: newElements, object: object)
    }

    /// Throws unless `0 <= index < limit` (checked before an `IndexSet` is made: `IndexSet`
    /// cannot hold negative numbers or `Int.max`).
    private func checkIndex(_ index: Int, limit: Int) throws {
        guard index >= 0, index < limit else {
            throw failure("the index \(index) is out of range for \(count) elements")
        }
    }

    /// Whether every index is in `0..<limit`, reading only the ranges' lower bounds and counts.
    private func fits(_ indexes: IndexSet, limit: Int) -> Bool {
        indexes.rangeView.allSatisfy { range in
            range.lowerBound >= 0 && range.lowerBound < limit && range.count <= limit - range.lowerBound
        }
    }

    private func describe(_ indexes: IndexSet) -> String {
        indexes.rangeView.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)…\($0.lowerBound + $0.count - 1)" }
            .joined(separator: ", ")
    }

    private func failure(_ reason: String) -> KeyValueCodingError {
        .invalidCollectionAccess(key: key, type: typeName(type(of: object)), reason: reason)
    }
}
