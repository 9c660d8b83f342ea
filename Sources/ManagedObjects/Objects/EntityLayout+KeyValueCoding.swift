// The key-value coding properties of attributes of plain value types: `value(forKey:)` and
// `setValue(_:forKey:)` on a managed object read and write the slot with no cast and no
// generic wrapping on the way.
import Foundation
import KeyValueCoding

extension EntityLayout {
    /// The key of an attribute whose values are `Wrapped` (a plain value type: numbers,
    /// strings, data, UUIDs, URLs), reading and writing slot `slot`: in the value array, where
    /// values are kept boxed already, or typed in a `@Managed` property's storage.
    ///
    /// A read returns the slot's value as it is (the array holds it boxed; a typed field is
    /// boxed once). A store of a value of exactly the type keeps it as given (one type
    /// compare); any other value is converted as key-value coding converts (numbers bridge, a
    /// value of another kind is a thrown ``KeyValueCodingError/typeMismatch(key:type:expected:actual:)``
    /// naming the key). Either fires a fault first.
    ///
    /// - Parameter notifies: The class's `automaticallyNotifiesObservers(forKey:)`, asked once
    ///   per layout (the layout serves one class).
    static func valueSlotProperty<Wrapped>(_ key: String, _: Wrapped.Type, slot: Int,
                                           field: ManagedLayoutField?, notifies: Bool) -> KeyValueProperty {
        if let field, field.storage.storageType == Wrapped?.self {
            return valueFieldProperty(key, Wrapped.self, slot: slot, offset: field.valueOffset, notifies: notifies)
        }
        return KeyValueProperty(
            boxedKey: key, valueType: Wrapped?.self, notifiesAutomatically: notifies,
            // The array holds every value boxed (never a nested optional): returned as it is.
            // The slot is in the value array (not a field): read there directly.
            get: { object in unsafeDowncast(object, to: ManagedObject.self).arraySlotValue(slot) },
            read: { object in KeyValueReading(unsafeDowncast(object, to: ManagedObject.self).slotValue(slot)) },
            set: { object, value, notify in
                try ManagedObject.checkKeyedChange(of: object)
                let boxed: Any?
                if holdsExactly(value, Wrapped.self) {
                    boxed = value   // already the box the slot holds
                } else {
                    boxed = try KeyValueProperty.convertedValue(value, to: Wrapped.self, key: key, owner: object)
                        .map { $0 as Any }
                }
                try storeArraySlot(boxed, slot, key: key, of: object, notify: notify)
            },
            setNil: { object, notify in
                try ManagedObject.checkKeyedChange(of: object)
                try storeArraySlot(nil, slot, key: key, of: object, notify: notify)
            })
    }

    /// The key of a date attribute kept in the value array (slot `slot`): as a property made
    /// with `KeyValueProperty(key:type:get:set:)` of type `Date?` reads, converts and refuses
    /// (a date that is not a finite number of seconds is a thrown
    /// ``KeyValueCodingError/valueOutOfRange(key:type:value:)``, inside the announced change,
    /// which it cancels), but a store that only the object's context hears takes the short
    /// way (``ManagedObject/changeSlot(_:key:_:)``) instead of the change seam.
    static func dateSlotProperty(_ key: String, slot: Int, notifies: Bool) -> KeyValueProperty {
        @Sendable func date(_ object: AnyObject) -> Date? {
            unsafeDowncast(object, to: ManagedObject.self).slotValue(slot) as? Date
        }
        return KeyValueProperty(
            boxedKey: key, valueType: Date?.self, notifiesAutomatically: notifies,
            get: { object in date(object).map { $0 as Any } },
            read: KeyValueProperty.typedReader(date),
            set: { object, value, notify in
                try ManagedObject.checkKeyedChange(of: object)
                let converted: Date?
                if holdsExactly(value, Date.self) {
                    converted = (value as! Date)
                } else {
                    converted = try KeyValueProperty.convertedValue(value, to: Date.self, key: key, owner: object)
                }
                if let converted, !converted.timeIntervalSinceReferenceDate.isFinite {
                    // A date that is not a finite number of seconds cannot be shown, compared
                    // or stored: refused inside the announced change (which it cancels).
                    let error = KeyValueCodingError.valueOutOfRange(key: key, type: String(describing: type(of: object)),
                                                                    value: "a date of \(converted.timeIntervalSinceReferenceDate) seconds")
                    guard notify else { throw error }
                    try object.changingValue(forKey: key) { throw error }
                    return
                }
                let boxed = converted.map { $0 as Any }
                try storeArraySlot(boxed, slot, key: key, of: object, notify: notify)
            },
            setNil: { object, notify in
                try ManagedObject.checkKeyedChange(of: object)
                try storeArraySlot(nil, slot, key: key, of: object, notify: notify)
            })
    }

    /// Stores `boxed` into value-array slot `slot` of `object` (a managed object), as a
    /// notified change of `key` when `notify` is set (the short way when only the object's
    /// context hears it: ``ManagedObject/changeSlot(_:key:_:)``).
    @inline(__always)
    private static func storeArraySlot(_ boxed: Any?, _ slot: Int, key: String, of object: AnyObject, notify: Bool) throws {
        let managed = unsafeDowncast(object, to: ManagedObject.self)
        guard notify else { return managed.storeSlotValue(boxed, slot) }
        managed.changeSlot(slot, key: key) { managed.storeSlotValue(boxed, slot) }
    }

    /// ``valueSlotProperty(_:_:slot:field:notifies:)`` for a slot held typed (`Wrapped?`) in a
    /// `@Managed` property's storage at byte offset `offset`.
    private static func valueFieldProperty<Wrapped>(_ key: String, _: Wrapped.Type, slot: Int, offset: Int,
                                                    notifies: Bool) -> KeyValueProperty {
        @Sendable func typed(_ object: AnyObject) -> Wrapped? {
            ManagedObject.loadedFieldAddress(object, offset).assumingMemoryBound(to: Wrapped?.self).pointee
        }
        @inline(__always) func store(_ value: Wrapped?, into object: AnyObject) {
            ManagedObject.loadedFieldAddress(object, offset).assumingMemoryBound(to: Wrapped?.self).pointee = value
        }
        return KeyValueProperty(
            boxedKey: key, valueType: Wrapped?.self, notifiesAutomatically: notifies,
            get: { object in
                guard let value = typed(object) else { return nil }
                return value
            },
            read: KeyValueProperty.typedReader(typed),
            set: { object, value, notify in
                try ManagedObject.checkKeyedChange(of: object)
                let converted: Wrapped?
                if holdsExactly(value, Wrapped.self) {
                    converted = loadInline(value, as: Wrapped.self)
                } else {
                    converted = try KeyValueProperty.convertedValue(value, to: Wrapped.self, key: key, owner: object)
                }
                guard notify else { return store(converted, into: object) }
                let managed = unsafeDowncast(object, to: ManagedObject.self)
                managed.changeSlot(slot, key: key) { store(converted, into: managed) }
            },
            setNil: { object, notify in
                try ManagedObject.checkKeyedChange(of: object)
                guard notify else { return store(nil, into: object) }
                let managed = unsafeDowncast(object, to: ManagedObject.self)
                managed.changeSlot(slot, key: key) { store(nil, into: managed) }
            })
    }
}
