// Key-value coding by key on a managed object, straight to its entity's key table.
import Foundation
import KeyValueCoding

extension ManagedObject {
    /// Returns the value of the property named `key`, firing a fault first (Apple:
    /// `value(forKey:)`).
    ///
    /// The same as ``KeyValueCodable/value(forKey:)`` on any key-value coding object (`self`,
    /// `description` and ``value(forUndefinedKey:)`` for keys the entity does not have), but
    /// called on a managed object's own type it goes straight to the entity's key table, with
    /// no look-up of the class's table by type. Final: as with the protocol's version, which
    /// generic code calls, key-value coding is customised through the key table (typed
    /// `@Managed` properties, `computedKeys`) and ``value(forUndefinedKey:)``, not by
    /// overriding this method.
    ///
    /// - Parameter key: A property of the entity (attribute or relationship), or a computed key.
    /// - Returns: The value; `nil` for a property that holds none.
    /// - Throws: ``KeyValueCodingError/undefinedProperty(_:entity:properties:)`` (or what an
    ///   override of ``value(forUndefinedKey:)`` throws) for a key the object does not have;
    ///   ``ManagedObjectContextError/faultNotFulfilled(_:reason:)`` for a fault whose values
    ///   cannot be loaded (its row or its context is gone; see ``fulfillFault()``), and for a
    ///   relationship of an object whose context was released (its relationships were cut:
    ///   they are faults that cannot fire).
    /// - Complexity: A short scan of the entity's keys (a hash look-up past 16 keys).
    /// - Thread safety: Confined to the object's context's queue, as every access.
    public final func value(forKey key: String) throws -> Any? {
        let table = unmanagedKeyValueKeyTable
        if let position = table._withUnsafeGuaranteedRef({ $0.position(ofKey: key) }) {
            if _slowPath(faultFlag) { try fulfillFault() }
            if _slowPath(faultedRelationshipSlots != 0) { try checkRelationshipFaultCanFire(forKey: key) }
            // An attribute of a plain value type kept in the value array (a direct store other
            // than a date's): its property's getter returns the slot's value as it is
            // (`EntityLayout.valueSlotProperty`), read here without the call through it.
            let direct = layout.directStore(position)
            if direct.word != 0 && !direct.isDate { return arraySlotValue(position) }
            let property = table._withUnsafeGuaranteedRef { $0.unmanagedProperty(at: position) }
            return property._withUnsafeGuaranteedRef { $0.value(of: self) }
        }
        return try ManagedObject.protocolValue(of: self, forKey: key)
    }

    /// Sets the property named `key` to `value`, with change tracking and notifications
    /// (Apple: `setValue(_:forKey:)`).
    ///
    /// The same as ``KeyValueCodable/setValue(_:forKey:)`` on any key-value coding object
    /// (numbers converted, `nil` into a non-optional attribute through ``setNilValueForKey(_:)``,
    /// ``setValue(_:forUndefinedKey:)`` for keys the entity does not have), straight to the
    /// entity's key table as ``value(forKey:)`` is.
    ///
    /// - Parameters:
    ///   - value: The new value, or `nil`.
    ///   - key: A property of the entity, or a writable computed key.
    /// - Throws: ``KeyValueCodingError`` for a value of the wrong type or range, a read-only
    ///   key or a key the object does not have (or what an override of
    ///   ``setValue(_:forUndefinedKey:)`` or ``setNilValueForKey(_:)`` throws);
    ///   ``ManagedObjectContextError/faultNotFulfilled(_:reason:)`` for a fault whose values
    ///   cannot be loaded (nothing changes); ``ManagedObjectContextError/contextGone(_:)`` for
    ///   an object whose context was released.
    /// - Complexity: A short scan of the entity's keys, then the store and its change tracking.
    /// - Thread safety: Confined to the object's context's queue, as every change.
    ///
    /// The value is taken (`consuming`): a value that goes straight to its slot is moved
    /// there, not copied, and its caller has nothing left to destroy.
    public final func setValue(_ value: consuming Any?, forKey key: String) throws {
        let table = unmanagedKeyValueKeyTable
        // Keys are often set in the table's order (or one key again): the position after the
        // last one set, or that one, is tried first (the layout's copy of the keys' words),
        // then the table is searched.
        let position: Int
        if let expected = layout.positionOfExpectedKey(key, after: Int(keyPositionHint)) {
            position = expected
        } else {
            guard let found = table._withUnsafeGuaranteedRef({ $0.position(ofKey: key) }) else {
                return try ManagedObject.protocolSetValue(value, of: self, forKey: key)
            }
            position = found
        }
        keyPositionHint = UInt8(truncatingIfNeeded: position)
        if _slowPath(faultFlag) { try fulfillFault() }
        // A value the property would keep as given, into an object only its hooks hear about
        // (a new object's stores): moved straight to the slot (ManagedObject+StoresByKey.swift).
        let (route, direct) = directStoreRoute(value, slot: position, key: key)
        switch route {
        case .silent:
            return writeArraySlot(consume value, position, direct)
        case .hooked:
            keyValueWillChange(KeyValueChangeEvent(.willChange, key: key))
            writeArraySlot(consume value, position, direct)
            return keyValueDidChange(KeyValueChangeEvent(.didChange, key: key))
        case .property:
            // An object whose context is gone takes no change by key: the entity's properties
            // refuse it (`ManagedObject.checkKeyedChange(of:)`), whichever way the store comes
            // (by key, by key path, through a mutable collection proxy).
            break
        }
        let property = table._withUnsafeGuaranteedRef { $0.unmanagedProperty(at: position) }
        try property._withUnsafeGuaranteedRef { try $0.setValue(value, on: self) }
    }

    /// The protocol's `value(forKey:)` (for keys the entity does not have): called through a
    /// generic parameter, which reaches the conformance's implementation, not the method above.
    private static func protocolValue<Object: KeyValueCodable>(of object: Object, forKey key: String) throws -> Any? {
        try object.value(forKey: key)
    }

    /// The protocol's `setValue(_:forKey:)`, as ``protocolValue(of:forKey:)``.
    private static func protocolSetValue<Object: KeyValueCodable>(_ value: Any?, of object: Object,
                                                                  forKey key: String) throws {
        try object.setValue(value, forKey: key)
    }

    /// The error for a key the entity does not have: the entity's name and property names
    /// (``KeyValueCodingError/notAKey(_:type:reason:)`` for a subclass's stored property that
    /// is not a key, such as a `weak` one, as on any object).
    package func undefinedPropertyError(_ key: String) -> KeyValueCodingError {
        let plain = undefinedKeyError(key)
        // A stored property of this class itself (the weak `managedObjectContext`) is the
        // object's machinery, not the user's: its name gets the entity's message, not the
        // advice to list it in computedKeys; a subclass's own such property keeps the advice.
        if case .notAKey = plain, KeyValueKeyTable.of(ManagedObject.self).unavailableKeys[key] == nil { return plain }
        return .undefinedProperty(key, entity: entity.name, properties: entity.allProperties.map(\.name))
    }
}
