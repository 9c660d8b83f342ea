// Relationship faults: to-many relationships whose members load on first access.
import Foundation

extension ManagedObject {
    /// Whether a relationship's value is not loaded yet (Apple: `hasFault(forRelationshipNamed:)`).
    ///
    /// A to-many relationship of an object filled from a store that leaves to-many
    /// relationships out of its rows (the SQLite store) is a fault until first accessed: reading
    /// or changing it asks the store for its members, in one query. A to-one relationship is a
    /// fault when the object it leads to is a fault (its values are not loaded). Every
    /// relationship of an object that is itself a fault is a fault. Asking does not fire the
    /// fault.
    ///
    /// ```swift
    /// let stand = try context.fetch(EntityFetchRequest(entityName: "Stand"))[0]
    /// stand.hasFault(forRelationshipNamed: "crates")   // true: not read yet
    /// _ = stand.value(forKey: "crates")                // one store query
    /// stand.hasFault(forRelationshipNamed: "crates")   // false
    /// ```
    ///
    /// - Parameter key: The name of one of the entity's relationships.
    /// - Returns: `true` when the relationship's value is not loaded; `false` when it is, and
    ///   for a key that is not a relationship of the entity.
    /// - Complexity: O(1).
    /// - Important: Thread safety: as the object (its context's thread or queue).
    public func hasFault(forRelationshipNamed key: String) -> Bool {
        guard let slot = layout.slotByName[key], case .relationship(let relationship) = layout.properties[slot] else { return false }
        if faultFlag || isRelationshipFaulted(slot: slot) { return true }
        if relationship.isToMany { return false }
        return (primitiveValue(forKey: key) as? ManagedObject)?.faultFlag ?? false
    }

    /// Whether the to-many relationship in `slot` is a relationship fault.
    @inline(__always)
    package func isRelationshipFaulted(slot: Int) -> Bool {
        slot < 64 && faultedRelationshipSlots & (1 &<< UInt64(slot)) != 0
    }

    /// Makes the to-many relationship in `slot` a relationship fault (its slot empty); `false`
    /// when the slot cannot be one (slots past 63 load with the object).
    package func markRelationshipFault(slot: Int) -> Bool {
        guard slot < 64 else { return false }
        faultedRelationshipSlots |= 1 &<< UInt64(slot)
        storeLoadedSlotValue(layout.emptyValue(slot), slot)
        return true
    }

    /// Forgets that `slot` is a relationship fault (its value was just loaded or set).
    package func clearRelationshipFault(slot: Int) {
        guard slot < 64 else { return }
        faultedRelationshipSlots &= ~(1 &<< UInt64(slot))
    }

    /// Loads the members of the relationship in `slot` when it is a relationship fault: from
    /// the context's parent or store, one query. Without a context (it is gone) the
    /// relationship stays a fault, and reads as empty.
    @usableFromInline @inline(never)
    package func fireRelationshipFault(slot: Int) {
        guard isRelationshipFaulted(slot: slot), let context = managedObjectContext else { return }
        clearRelationshipFault(slot: slot)
        context.fulfillRelationshipFault(self, slot: slot)
    }

    /// Throws when `key` is a relationship fault that cannot fire: the object's context is
    /// gone (key-value coding's reads say so, as a fault's do; typed reads give empty values).
    @inline(never)
    package func checkRelationshipFaultCanFire(forKey key: String) throws {
        guard managedObjectContext == nil, let slot = layout.slotByName[key], isRelationshipFaulted(slot: slot) else { return }
        throw ManagedObjectContextError.faultNotFulfilled(objectID, reason: .contextGone)
    }

    /// Throws ``ManagedObjectContextError/contextGone(_:)`` when the context the object is
    /// registered in was released (the object still holds the context's shared observation
    /// state, and the context reads as `nil`): a change made now would be recorded by no
    /// context. An object that left its context (`reset()`, a deleted inserted object) holds no
    /// such state: it is an object outside any context, and takes changes.
    @inline(never)
    package func checkContextForChange() throws {
        guard registrationSequence != 0, hasOwnerObservationStorage, managedObjectContext == nil else { return }
        throw ManagedObjectContextError.contextGone(objectID)
    }

    /// ``checkContextForChange()`` for a store through the entity's key table (by key, by key
    /// path, through a mutable collection proxy): one field test for an object never
    /// registered in a context.
    @inline(__always)
    static func checkKeyedChange(of object: AnyObject) throws {
        let managed = unsafeDowncast(object, to: ManagedObject.self)
        if _slowPath(managed.registrationSequence != 0) { try managed.checkContextForChange() }
    }

    /// Whether a typed relationship store must change nothing: the object's context was
    /// released (its relationships were cut; the store cannot throw
    /// ``ManagedObjectContextError/contextGone(_:)``).
    @usableFromInline @inline(never)
    package func refusesRelationshipStore() -> Bool {
        hasOwnerObservationStorage && managedObjectContext == nil
    }
}
