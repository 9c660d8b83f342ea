// What changed in an object since it was last saved.
import Foundation
import KeyValueCoding
import ObjectGraphInternals
import Predicates

extension ManagedObject {
    /// Whether the object is new in its context since the last save (Apple: `isInserted`).
    public var isInserted: Bool { managedObjectContext?.inserted.contains(self) ?? false }

    /// Whether the object has changed properties since the last save (Apple: `isUpdated`).
    public var isUpdated: Bool { managedObjectContext?.updated.contains(self) ?? false }

    /// Whether the object will be deleted at the next save (Apple: `isDeleted`).
    public var isDeleted: Bool { managedObjectContext?.deleted.contains(self) ?? false }

    /// Whether the object is inserted, updated or deleted (Apple: `hasChanges`).
    public var hasChanges: Bool { isInserted || isUpdated || isDeleted }

    /// The saved (non-transient) properties whose values differ from the committed ones, with
    /// their current values; for an inserted object every saved property that has a value
    /// (Apple: `changedValues()`). Relationships compare by the identity of their objects.
    ///
    /// - Returns: Current values by key; `nil` values as `nil`.
    public func changedValues() -> [String: Any?] {
        var result: [String: Any?] = [:]
        guard let context = managedObjectContext else { return result }
        if context.inserted.contains(self) {
            for (slot, property) in layout.properties.enumerated() where !property.isTransient {
                let current = slotValue(slot)
                if !Self.isEmpty(current) { result[property.name] = current }
            }
            return result
        }
        // Only the slots changed since the last save can differ from their committed values.
        guard let committed = committedRecord else { return result }
        for slot in committed.slots where !layout.properties[slot].isTransient {
            guard let old = committed[slot] else { continue }
            let current = slotValue(slot)
            if !Self.sameValue(old, current) { result[layout.keys[slot]] = current }
        }
        return result
    }

    /// Whether ``changedValues()`` is not empty, found without building it: the first saved
    /// property whose value differs from its committed one answers (a save asks this of
    /// every updated object).
    package var hasChangedSavedValues: Bool {
        guard let context = managedObjectContext else { return false }
        return hasChangedSavedValues(in: context)
    }

    /// ``hasChangedSavedValues`` of an object of `context` (its context, which the caller
    /// knows: not loaded through the object's weak reference).
    @inline(__always)
    package func hasChangedSavedValues(in context: ManagedObjectContext) -> Bool {
        let traits = layout.slotTraits
        if context.inserted.contains(self) {
            for slot in traits.indices where traits[slot].isSaved && !Self.isEmpty(slotValue(slot)) { return true }
            return false
        }
        // The recorded slots walked in place (no copy of the record, no array of its slots).
        return committedRecord?.containsRecorded { slot, old in
            guard traits[slot].isSaved else { return false }
            let current = slotValue(slot)
            return !(Self.sameCommonValue(old, current) ?? Self.sameValue(old, current))
        } ?? false
    }

    /// ``sameValue(_:_:)`` of two values of one common attribute type (integers, a non-NaN
    /// double, a string, a Boolean, a date), found by comparing the containers' type metadata
    /// words and reading the values in place (the `Any?` layout `RuntimeLayout` checks)
    /// instead of trying casts; `nil` for any other pair.
    @inline(__always)
    static func sameCommonValue(_ lhs: Any?, _ rhs: Any?) -> Bool? {
        guard AnyContainerMetadata.isReadable else { return nil }
        return withUnsafePointer(to: lhs) { left in
            withUnsafePointer(to: rhs) { right -> Bool? in
                let l = UnsafeRawPointer(left), r = UnsafeRawPointer(right)
                let metadata = AnyContainerMetadata.word(at: l)
                guard metadata != 0, metadata == AnyContainerMetadata.word(at: r) else { return nil }
                switch metadata {
                case AnyContainerMetadata.word(of: Int64.self): return l.load(as: Int64.self) == r.load(as: Int64.self)
                case AnyContainerMetadata.word(of: String.self): return l.load(as: String.self) == r.load(as: String.self)
                case AnyContainerMetadata.word(of: Double.self):
                    let (a, b) = (l.load(as: Double.self), r.load(as: Double.self))
                    return a.isNaN ? nil : a == b
                case AnyContainerMetadata.word(of: Int32.self): return l.load(as: Int32.self) == r.load(as: Int32.self)
                case AnyContainerMetadata.word(of: Int16.self): return l.load(as: Int16.self) == r.load(as: Int16.self)
                case AnyContainerMetadata.word(of: Bool.self): return l.load(as: Bool.self) == r.load(as: Bool.self)
                case AnyContainerMetadata.word(of: Date.self): return l.load(as: Date.self) == r.load(as: Date.self)
                default: return nil
                }
            }
        }
    }

    /// The saved properties changed in the current user event (since the last
    /// `processPendingChanges()`), with their values at the start of the event (Apple:
    /// `changedValuesForCurrentEvent()`, which also gives the old values).
    ///
    /// - Returns: Old values by key; `nil` values as `nil`.
    public func changedValuesForCurrentEvent() -> [String: Any?] {
        var result: [String: Any?] = [:]
        guard managedObjectContext != nil, let start = eventRecord else { return result }
        for (slot, old) in start.entries where !layout.properties[slot].isTransient && !Self.sameValue(old, slotValue(slot)) {
            result[layout.keys[slot]] = old
        }
        return result
    }

    /// Whether the saved properties differ from the committed values
    /// (Apple: `hasPersistentChangedValues`).
    public var hasPersistentChangedValues: Bool { !changedValues().isEmpty }

    /// The committed values (those of the last save, or the current ones where nothing
    /// changed) of `keys`, or of every property for `nil` (Apple: `committedValues(forKeys:)`).
    ///
    /// - Parameter keys: Property names; names the entity does not have are left out.
    public func committedValues(forKeys keys: [String]?) -> [String: Any?] {
        var result: [String: Any?] = [:]
        let names = keys ?? layout.properties.map(\.name)
        for name in names {
            guard let slot = layout.slotByName[name] else { continue }
            if let context = managedObjectContext {
                result[name] = context.committedValue(of: self, slot: slot)
            } else {
                result[name] = slotValue(slot)
            }
        }
        return result
    }

    static func isEmpty(_ value: Any?) -> Bool {
        switch value {
        case .none: return true
        case let set as Set<ManagedObject>: return set.isEmpty
        case let array as [ManagedObject]: return array.isEmpty
        default: return false
        }
    }

    /// Equality of property values: identity for related objects, predicate equality
    /// (numbers across types, dates, data…) for attribute values.
    static func sameValue(_ lhs: Any?, _ rhs: Any?) -> Bool {
        // Values of one attribute type compare directly (a cast to a concrete type is cheap;
        // building constants is not): merges and refreshes compare every property.
        switch (lhs, rhs) {
        case let (l as String, r as String): return l == r
        case let (l as Int64, r as Int64): return l == r
        case let (l as Int32, r as Int32): return l == r
        case let (l as Int16, r as Int16): return l == r
        case let (l as Double, r as Double) where !l.isNaN: return l == r
        case let (l as Bool, r as Bool): return l == r
        case let (l as Date, r as Date): return l == r
        default: break
        }
        switch (lhs, rhs) {
        case (.none, .none): return true
        case (.none, _), (_, .none): return isEmpty(lhs) && isEmpty(rhs)
        case let (l as ManagedObject, r as ManagedObject): return l === r
        case let (l as Set<ManagedObject>, r as Set<ManagedObject>): return l == r
        case let (l as [ManagedObject], r as [ManagedObject]): return l.elementsEqual(r, by: ===)
        default: return KeyValueConstant(lhs) == KeyValueConstant(rhs)
        }
    }
}
