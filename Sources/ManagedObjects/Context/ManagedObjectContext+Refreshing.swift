// Refreshing, resetting and merging: bringing the context's objects up to date with the store.
import Foundation
import KeyValueCoding

extension ManagedObjectContext {
    /// Brings an object up to date with its store (Apple: `refresh(_:mergeChanges:)`).
    ///
    /// With `mergeChanges` `false` the object's unsaved changes are dropped and it turns into a
    /// fault: its values load from the store on next access. With `true` the properties the
    /// context did not change take the store's values (observers are told) and the changed
    /// ones keep their unsaved values, which a later save writes over the store's; the object's
    /// store version moves on, so that save does not conflict. Inserted objects are left alone.
    ///
    /// - Parameters:
    ///   - object: A registered object.
    ///   - mergeChanges: Whether to keep the object's unsaved changes.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        guard object.managedObjectContext === self, !inserted.contains(object) else { return }
        let id = ObjectIdentifier(object)
        if !mergeChanges {
            object.willTurnIntoFault()
            updated.remove(object)
            committed[id] = nil
            object.faultFlag = true
            object.clearSlotValues()
            object.didTurnIntoFault()
        } else if !object.faultFlag,
                  let storeID = object.objectID.storeIdentifier,
                  let store = coordinator?.store(withIdentifier: storeID),
                  let row = try? store.row(for: object.objectID) {
            let scratch = try? makeObject(entityName: object.entity.name, id: object.objectID)
            guard let scratch else { return }
            fillValues(scratch, from: row)
            let changedSlots = Set(committed[id]?.keys.map { $0 } ?? [])
            isRestoring = true
            for (slot, property) in object.layout.properties.enumerated() where !property.isTransient {
                let storeValue = scratch.slotValue(slot)
                if changedSlots.contains(slot) {
                    committed[id]?[slot] = storeValue
                } else if !ManagedObject.sameValue(object.slotValue(slot), storeValue) {
                    object.willChangeValue(forKey: property.name)
                    object.storeLoadedSlotValue(storeValue, slot)
                    object.didChangeValue(forKey: property.name)
                }
            }
            isRestoring = false
            object.storeVersion = row.version
        }
        pendingEvent.refreshed.insert(object)
    }

    /// Forgets every registered object and every change: the objects leave the context (their
    /// values stay as they were, but nothing tracks them) and the undo manager's actions are
    /// removed (Apple: `reset()`). Posts ``objectsDidChangeNotification`` with
    /// ``ChangeKey/invalidatedAll``.
    public func reset() {
        enterConfinement("reset()")
        defer { exitConfinement() }
        undoManager?.removeAllActions()
        for object in registered.values {
            object.managedObjectContext = nil
            object.setKeyValueChangeSink(nil)
        }
        registered.removeAll()
        forgetChanges()
        var changes = Changes()
        changes.invalidatedAll = true
        postObjectsDidChange(changes)
    }

    /// Brings another context's saved changes into this one (Apple:
    /// `mergeChanges(fromContextDidSave:)`): registered objects the other context updated are
    /// refreshed keeping local changes, registered objects it deleted leave this context, objects
    /// it inserted are registered as faults, and ``processPendingChanges()`` reports all three
    /// to this context's observers.
    ///
    /// - Parameter result: The other context's ``SaveResult`` (from ``onDidSave(_:)``).
    public func mergeChanges(from result: SaveResult) {
        // Objects the other context inserted come in as faults and are reported as inserted
        // (what a fetched results controller needs to show them).
        for id in result.insertedObjectIDs {
            if let object = try? object(with: id), !inserted.contains(object) { pendingEvent.inserted.insert(object) }
        }
        for id in result.updatedObjectIDs {
            if let object = registered[id] { refresh(object, mergeChanges: true) }
        }
        for id in result.deletedObjectIDs {
            guard let object = registered[id] else { continue }
            inserted.remove(object)
            updated.remove(object)
            deleted.remove(object)
            pendingEvent.deleted.insert(object)
            unregister(object)
        }
        processPendingChanges()
    }

    /// Brings the changes of another context's ``didSaveNotification`` into this one (Apple:
    /// `mergeChanges(fromContextDidSave:)`).
    ///
    /// - Parameter notification: A did-save notification of a context on the same coordinator.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        let info = notification.userInfo ?? [:]
        var result = SaveResult()
        result.insertedObjectIDs = info[ChangeKey.insertedObjectIDs.rawValue] as? Set<ManagedObjectID> ?? []
        result.updatedObjectIDs = info[ChangeKey.updatedObjectIDs.rawValue] as? Set<ManagedObjectID> ?? []
        result.deletedObjectIDs = info[ChangeKey.deletedObjectIDs.rawValue] as? Set<ManagedObjectID> ?? []
        mergeChanges(from: result)
    }
}
