// Deletes in a conflict resolution: a delete that wins applies its delete rules to the
// relationships as the store's row of the deleted object has them, so that no row the save
// leaves names it; an object another writer deleted lets go of its destinations.
import Foundation

extension ManagedObjectContext {
    /// Applies the cascade and nullify rules of an object whose delete won a resolution (object
    /// trump, overwrite) to the destinations its store row lists whose inverse, in the store,
    /// still names it: those another writer linked to it after this context read it, which the
    /// delete in this context could not reach. Each destination first catches up with its own
    /// store row (see ``catchUp(_:inverseSlot:)``), then is deleted (cascade) or lets go of
    /// the object (nullify), as recorded changes the retried save writes. Deny and no-action
    /// leave them, as a delete in the context does.
    ///
    /// - Parameters:
    ///   - object: The deleted object; its version is the store row's already.
    ///   - persisted: The store's row of the object.
    package func applyDeleteRules(ofDeleted object: ManagedObject, toStoreRow persisted: StoreRow) {
        let layout = object.layout
        for slot in layout.relationshipSlots {
            let property = layout.properties[slot]
            guard case .relationship(let relationship) = property,
                  relationship.deleteRule == .cascade || relationship.deleteRule == .nullify,
                  let inverseName = relationship.inverseName,
                  let stored = value(of: persisted, for: property) else { continue }
            for target in Self.members(stored) {
                guard target.managedObjectContext === self, !deleted.contains(target), !inserted.contains(target),
                      let inverseSlot = target.layout.slotByName[inverseName],
                      catchUp(target, inverseSlot: inverseSlot),
                      let inverse = try? target.value(forKey: inverseName),
                      Self.members(inverse).contains(where: { $0 === object }) else { continue }
                resolutionMovedRelationships = true
                if relationship.deleteRule == .cascade {
                    delete(target)
                } else {
                    maintenanceDepth += 1
                    unlink(object, from: target, inverseName: inverseName)
                    maintenanceDepth -= 1
                }
            }
        }
    }

    /// Brings a destination of a deleted object up to date with its current store row, where
    /// this context has not changed it: a fault is filled from that row; a loaded object
    /// without changes takes the row's values and version (so its save does not conflict) and
    /// the context's objects on the other side of its relationships follow (see
    /// ``mendInverses(of:before:persisted:)``); a changed object takes the row's value of the
    /// inverse slot alone, quietly, unless it changed that slot itself.
    ///
    /// - Returns: Whether the store still has the destination (`false` also when the store
    ///   cannot answer).
    private func catchUp(_ target: ManagedObject, inverseSlot: Int) -> Bool {
        let found: StoreRow?
        do { found = try currentStoreRow(for: target.objectID) } catch { return false }
        guard let row = found else { return false }
        if target.faultFlag {
            fill(target, from: row)
        } else if !updated.contains(target), target.committedRecord == nil {
            let before = inverseMembers(of: target)
            takeValues(of: row, into: target, keeping: [])
            mendInverses(of: target, before: before, persisted: row)
        } else if !target.isRelationshipFaulted(slot: inverseSlot), !hasCommittedValue(of: target, slot: inverseSlot),
                  let value = value(of: row, for: target.layout.properties[inverseSlot]),
                  !ManagedObject.sameValue(target.slotValue(inverseSlot), value) {
            storeQuietly(value, into: target, slot: inverseSlot, key: target.layout.keys[inverseSlot])
        }
        return true
    }

    /// Empties the relationships of an object whose row another writer deleted, as it leaves
    /// the context in a resolution: its destinations stop listing it (see
    /// ``detachFromRelatedObjects(_:)``), and it stops naming them, quietly (observers are
    /// told, nothing is recorded), so that it does not keep naming a destination that no
    /// longer lists it.
    func letGoOfDestinations(ofGone object: ManagedObject) {
        guard !object.faultFlag else { return }
        detachFromRelatedObjects(object)
        let layout = object.layout
        for slot in layout.relationshipSlots where !object.isRelationshipFaulted(slot: slot) {
            guard case .relationship(let relationship) = layout.properties[slot],
                  !Self.members(object.slotValue(slot)).isEmpty else { continue }
            let empty: Any?
            switch relationship.cardinality {
            case .toOne: empty = nil
            case .toMany: empty = Set<ManagedObject>()
            case .orderedToMany: empty = [ManagedObject]()
            }
            storeQuietly(empty, into: object, slot: slot, key: layout.keys[slot])
        }
    }
}
