// Inverse relationships after an optimistic-locking conflict is resolved: the resolved object's
// relationships may end up neither as the context had them nor as the store has them, and the
// objects on the other side must follow, or a store that keeps both sides of a relationship (the
// in-memory and file stores) saves a graph where a destination still lists an object that left it.
import Foundation

extension ManagedObjectContext {
    /// The members of every relationship (with an inverse, not a relationship fault) of an
    /// object, by slot: what the context holds before a conflict is resolved.
    package func inverseMembers(of object: ManagedObject) -> [Int: [ManagedObject]] {
        guard maintainsInverses else { return [:] }
        var members: [Int: [ManagedObject]] = [:]
        for (slot, property) in object.layout.properties.enumerated() {
            guard case .relationship(let relationship) = property, !property.isTransient,
                  relationship.inverseName != nil, !object.isRelationshipFaulted(slot: slot) else { continue }
            members[slot] = Self.members(object.slotValue(slot))
        }
        return members
    }

    /// Whether two ``inverseMembers(of:)`` answers of one object differ: a slot holds other
    /// objects (an order alone, which moves nothing between objects, is no difference).
    package func inverseMembersDiffer(_ before: [Int: [ManagedObject]], _ after: [Int: [ManagedObject]]) -> Bool {
        guard before.count == after.count else { return true }
        for (slot, members) in before {
            guard let others = after[slot], others.count == members.count else { return true }
            if Set(members.map(ObjectIdentifier.init)) != Set(others.map(ObjectIdentifier.init)) { return true }
        }
        return false
    }

    /// Puts the inverses of a resolved object's relationships in step with the values the
    /// resolution left it (Apple's merge policies do the same), as recorded changes, so the save
    /// writes both sides: a destination the object left (one the store's row holds, or one the
    /// context linked before the resolution dropped that change) stops listing it, and a
    /// destination it holds lists it. A destination whose loaded value is merely older than the
    /// store's row, where the store's row is already right, is left alone (changing it would
    /// overwrite what another writer saved).
    ///
    /// - Parameters:
    ///   - object: The object just resolved.
    ///   - before: ``inverseMembers(of:)`` from before the resolution.
    ///   - persisted: The store's row the resolution merged.
    package func mendInverses(of object: ManagedObject, before: [Int: [ManagedObject]], persisted: StoreRow) {
        for (slot, held) in before.sorted(by: { $0.key < $1.key }) {
            let property = object.layout.properties[slot]
            guard case .relationship(let relationship) = property, let inverseName = relationship.inverseName,
                  !object.isRelationshipFaulted(slot: slot), let storeValue = value(of: persisted, for: property) else { continue }
            let after = Self.members(object.slotValue(slot))
            let stored = Self.members(storeValue)
            let afterIDs = Set(after.map(ObjectIdentifier.init))
            let storedIDs = Set(stored.map(ObjectIdentifier.init))
            var seen = Set<ObjectIdentifier>()
            for target in stored + held where !afterIDs.contains(ObjectIdentifier(target)) && seen.insert(ObjectIdentifier(target)).inserted {
                mendInverse(of: target, named: inverseName, holding: object, false,
                            storeHolds: storedIDs.contains(ObjectIdentifier(target)), relationshipName: relationship.name)
            }
            for target in after {
                mendInverse(of: target, named: inverseName, holding: object, true,
                            storeHolds: storedIDs.contains(ObjectIdentifier(target)), relationshipName: relationship.name)
            }
        }
    }

    /// Makes `target`'s inverse hold `source` (`holds`) or not, as a recorded change, where the
    /// save would otherwise leave the two sides apart: the target's loaded value disagrees by a
    /// change of this context, or its store row disagrees. When the loaded value already agrees
    /// but the store's row does not and the slot has no recorded change, the store's side is
    /// put in quietly first, so the change is recorded and saved. When only the loaded value
    /// is behind a store row that agrees, it follows the row quietly (nothing to save); a to-one
    /// inverse the row leaves without `source` takes the target's current store row, and so
    /// does the inverse of the object that row names (see ``followStoreRow(of:slot:)``).
    private func mendInverse(of target: ManagedObject, named inverseName: String, holding source: ManagedObject,
                             _ holds: Bool, storeHolds: Bool, relationshipName: String) {
        // A fault loads the store's row: nothing to mend when that is right.
        guard storeHolds != holds || !target.faultFlag,
              target.managedObjectContext === self, !deleted.contains(target), !inserted.contains(target),
              let slot = target.layout.slotByName[inverseName],
              case .relationship(let inverse) = target.layout.properties[slot],
              !target.isRelationshipFaulted(slot: slot) else { return }
        let current = Self.members(target.slotValue(slot))
        let changed = hasCommittedValue(of: target, slot: slot)
        /// The target's value with `source` among its members or not, the others as they are.
        func value(including: Bool) -> Any? {
            let others = current.filter { $0 !== source }
            switch inverse.cardinality {
            case .toOne: return including ? source : nil
            case .toMany: return Set(including ? others + [source] : others)
            case .orderedToMany: return including ? others + [source] : others
            }
        }
        func quietly(include: Bool) { storeQuietly(value(including: include), into: target, slot: slot, key: inverseName) }
        if current.contains(where: { $0 === source }) == holds {
            guard storeHolds != holds, !changed else { return }
            quietly(include: storeHolds)
        } else if !changed, storeHolds == holds {
            if holds || inverse.cardinality != .toOne {
                quietly(include: holds)
            } else if let destination = followStoreRow(of: target, slot: slot) as? ManagedObject,
                      let back = inverse.inverseName, let backSlot = destination.layout.slotByName[back] {
                followStoreRow(of: destination, slot: backSlot)
            }
            return
        }
        resolutionMovedRelationships = true
        if holds {
            link(source, to: target, inverseName: inverseName, relationshipName: relationshipName)
        } else {
            unlink(source, from: target, inverseName: inverseName)
        }
    }

    /// Puts the value the object's current store row gives one slot into it, quietly (observers
    /// are told, nothing is recorded, the object's version stays), where the slot is loaded and
    /// unchanged in this context: how a stale destination follows the store's row during a
    /// resolution. The row is read from the store, not from the row cache. An object the store
    /// no longer has (another writer deleted it) lets go of its to-one destination, which no
    /// longer lists it.
    ///
    /// - Returns: The slot's value afterwards (`nil` also when it was left alone).
    @discardableResult
    private func followStoreRow(of object: ManagedObject, slot: Int) -> Any? {
        guard object.managedObjectContext === self, !object.faultFlag, !inserted.contains(object), !deleted.contains(object),
              !object.isRelationshipFaulted(slot: slot), !hasCommittedValue(of: object, slot: slot) else { return nil }
        // A store that cannot answer leaves the slot alone (`try?` would not tell that from a
        // row that is gone).
        let found: StoreRow?
        do { found = try currentStoreRow(for: object.objectID) } catch { return nil }
        let property = object.layout.properties[slot]
        let rowValue: Any?
        if let row = found {
            guard let value = value(of: row, for: property) else { return nil }
            rowValue = value
        } else {
            guard case .relationship(let relationship) = property, relationship.cardinality == .toOne else { return nil }
            rowValue = nil
        }
        if !ManagedObject.sameValue(object.slotValue(slot), rowValue) {
            storeQuietly(rowValue, into: object, slot: slot, key: object.layout.keys[slot])
        }
        return rowValue
    }

    /// Puts `value` into `slot` (key `key`) of `object` as the store's side of it: observers
    /// are told, nothing is recorded as a change, the object's version stays.
    func storeQuietly(_ value: Any?, into object: ManagedObject, slot: Int, key: String) {
        if case .relationship = object.layout.properties[slot] { resolutionMovedRelationships = true }
        let wasRestoring = isRestoring
        isRestoring = true
        object.willChangeValue(forKey: key)
        object.storeLoadedSlotValue(value, slot)
        object.didChangeValue(forKey: key)
        isRestoring = wasRestoring
    }
}
