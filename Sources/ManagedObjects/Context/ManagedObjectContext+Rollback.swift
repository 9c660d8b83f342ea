// Rolling back: putting every object back the way it was at the last save.
import Foundation
import KeyValueCoding
import KeyValueObserving

extension ManagedObjectContext {
    /// Undoes every change since the last save: inserted objects leave the context, deleted ones
    /// come back, changed properties get their committed values again, with change
    /// notifications for observers; the undo manager's actions are removed (Apple:
    /// `rollback()`).
    ///
    /// Then one ``objectsDidChangeNotification`` (and the ``onObjectsDidChange(_:)`` handlers)
    /// reports what the rollback did, so that fetched results controllers and other observers
    /// follow: the inserted objects that left the context as deleted and invalidated, the
    /// deleted objects that came back as inserted, and the changed objects, whose values went
    /// back, as refreshed. Changes not yet processed are discarded with the rest (no event
    /// of their own). Nothing is posted when there was nothing to roll back.
    ///
    /// - Complexity: O(*n*) in the number of changed properties and inserted objects.
    public func rollback() {
        enterConfinement("rollback()")
        defer { exitConfinement() }
        undoManager?.removeAllActions()
        let wasInserted = inserted.objects
        let wasDeleted = deleted.objects
        var report = Changes()
        report.deleted = wasInserted
        report.invalidated = wasInserted
        report.inserted = wasDeleted.subtracting(wasInserted)
        report.refreshed = updated.objects.subtracting(wasInserted).subtracting(wasDeleted)
        for object in committedHolders where !wasInserted.contains(object) && !wasDeleted.contains(object) {
            report.refreshed.insert(object)
        }
        defer { if !report.isEmpty { postObjectsDidChange(report) } }
        isRestoring = true
        defer { isRestoring = false }
        for object in inserted { unregister(object) }
        for object in committedHolders {
            guard let values = object.committedRecord else { continue }
            for (slot, value) in values.entries {
                let key = object.layout.properties[slot].name
                object.willChangeValue(forKey: key)
                object.storeSlotValue(value, slot)
                object.didChangeValue(forKey: key)
            }
        }
        forgetChanges()
    }

    /// Empties the change sets, committed values and the pending event.
    package func forgetChanges() {
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        forgetAllCommittedValues()
        forgetAllEventStartValues()
        pendingOldValues.removeAll()
        pendingEvent = Changes()
    }

    /// Forgets all changes as committed: the current values become the committed ones. Called
    /// when a save reaches the store.
    package func commitChanges() {
        // The deleted set emptied first (its bits cleared): unregistering an object then finds
        // it in no set to remove it from, and the set is not copied by a removal while it is
        // walked.
        let gone = deleted.objects
        // Most registered objects deleted (a save of a mass delete): the registry is made anew
        // with the objects that stay, before the bits are cleared, instead of one removal per
        // deleted object (each moving the entries after it).
        let rebuildsRegistry = gone.count >= Self.registryRebuildMinimum && gone.count * 2 >= registered.count
        if rebuildsRegistry {
            var kept = [ManagedObjectID: ManagedObject](minimumCapacity: registered.count - gone.count)
            for (id, object) in registered where !deleted.contains(object) { kept[id] = object }
            registered = kept
        }
        deleted.removeAll()
        for object in gone { unregister(object, leavingRegistry: rebuildsRegistry) }
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        forgetAllCommittedValues()
        // The current event's later stores record their objects as updated again.
        endQuietStores()
    }

    /// The fewest deleted objects a save unregisters by making the registry anew (when they
    /// are also at least half of the registered objects).
    static let registryRebuildMinimum = 64

    /// The committed value of `slot` of `object`: the value at the last save, or the current
    /// value if it did not change since.
    package func committedValue(of object: ManagedObject, slot: Int) -> Any? {
        if let value = object.committedRecord?[slot] { return value }
        return object.slotValue(slot)
    }
}
