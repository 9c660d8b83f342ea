// User events: processPendingChanges ends one, with its notification and its undo step.
import Foundation
import KeyValueCoding
import UndoManagement

extension ManagedObjectContext {
    /// Ends the current user event: posts ``objectsDidChangeNotification`` (and calls the
    /// ``onObjectsDidChange(_:)`` handlers) for the objects inserted, updated, deleted or
    /// refreshed since the last call, and closes the undo manager's event group, so the event's
    /// changes are one undo step (Apple: `processPendingChanges()`, which the run loop calls at
    /// the end of each event on Apple platforms; on Linux call it where an event ends, or let
    /// ``save()`` call it).
    public func processPendingChanges() {
        enterConfinement("processPendingChanges()")
        defer { exitConfinement() }
        if let undoManager, !undoManager.isUndoing, !undoManager.isRedoing {
            try? undoManager.closeEventGroup()
        }
        let changes = pendingEvent
        pendingEvent = Changes()
        forgetAllEventStartValues()
        guard !changes.isEmpty else { return }
        postObjectsDidChange(changes)
    }

    /// Undoes the last undo step of the context's undo manager (Apple: `undo()`).
    public func undo() throws {
        processPendingChanges()
        try undoManager?.undo()
        processPendingChanges()
    }

    /// Redoes the last undone step (Apple: `redo()`).
    public func redo() throws {
        processPendingChanges()
        try undoManager?.redo()
        processPendingChanges()
    }

    /// Whether inverse relationships are maintained for a change now: not while undoing or
    /// redoing, which replays the recorded maintenance itself.
    package var maintainsInverses: Bool {
        maintenanceDepth == 0 && !(undoManager.map { $0.isUndoing || $0.isRedoing } ?? false)
    }

    /// Objects inserted, updated and deleted since the last `processPendingChanges()`.
    ///
    /// Reading or changing it first puts the inserts that wait in ``pendingEventInserts`` into
    /// its inserted objects; any change forgets ``lastPendingInsert`` (it may take an object
    /// out of the inserted objects).
    package var pendingEvent: Changes {
        _read {
            if !pendingEventInserts.isEmpty { takePendingEventInserts() }
            yield storedPendingEvent
        }
        _modify {
            if !pendingEventInserts.isEmpty { takePendingEventInserts() }
            defer { lastPendingInsert = nil }
            yield &storedPendingEvent
        }
        set {
            pendingEventInserts.removeAll()
            storedPendingEvent = newValue
            lastPendingInsert = nil
        }
    }

    /// Puts the waiting inserts (``pendingEventInserts``) into the pending event's inserted
    /// objects, the set grown once for all of them (not doubled and rehashed as they come).
    /// Adding objects takes none out: ``lastPendingInsert`` stays true.
    ///
    /// The usual event of new objects (the event's set empty, the waiting objects exactly
    /// the context's inserted ones, in order: each once) makes its set without comparisons
    /// (``DistinctSet``). Otherwise the set is filled outside the event (one exclusive
    /// access, not one per object) by ``TrackedObjectSet/add(_:to:)``.
    private func takePendingEventInserts() {
        let waiting = pendingEventInserts
        pendingEventInserts = []
        if storedPendingEvent.inserted.isEmpty && Self.holds(inserted, exactly: waiting) {
            storedPendingEvent.inserted = DistinctSet.of(waiting)
            return
        }
        var inserted = storedPendingEvent.inserted
        storedPendingEvent.inserted = []
        inserted.reserveCapacity(inserted.count + waiting.count)
        TrackedObjectSet.add(waiting, to: &inserted)
        storedPendingEvent.inserted = inserted
    }

    package func noteInserted(_ object: ManagedObject) {
        if storedPendingEvent.deleted.isEmpty {
            // Not hashed now when the event deleted nothing (an insert of many new objects):
            // the event's set takes it when the event is next read or changed.
            pendingEventInserts.append(object)
        } else {
            pendingEvent.inserted.insert(object)
            pendingEvent.deleted.remove(object)
        }
        registerUndo(for: object) { context, object in context.delete(object) }
    }

    /// Notes a deleted object in the pending event. The undo action that inserts it again is
    /// registered by ``registerUndoOfDelete(_:)``, after the delete rules have changed the
    /// related objects: undo runs actions newest first, so the object is back in the context
    /// before its inverses are restored (a relationship refuses an object of no context, and a
    /// deleted object that was never saved leaves the context).
    package func noteDeleted(_ object: ManagedObject, wasInserted: Bool) {
        if pendingEvent.inserted.remove(object) == nil || !wasInserted { pendingEvent.deleted.insert(object) }
        pendingEvent.updated.remove(object)
    }

    /// Registers the undo action of deleting `object`: inserting it again.
    package func registerUndoOfDelete(_ object: ManagedObject) {
        registerUndo(for: object) { context, object in try? context.insert(object) }
    }

    package func noteUpdated(_ object: ManagedObject, key: String, old: Any?, isInsertedOrDeleted: Bool) {
        if !isInsertedOrDeleted {
            pendingEvent.updated.insert(object)
        } else if inserted.contains(object), !isInsertedInPendingEvent(object) {
            // Inserted in an earlier event and changed in this one: an update of this event
            // (what a fetched results controller needs to move it).
            pendingEvent.updated.insert(object)
        }
        // Checked first: the action's closure (holding the key and old value) is an allocation.
        guard isRegisteringUndo else { return }
        registerUndo(for: object) { _, object in try? object.setValue(old, forKey: key) }
    }

    /// Whether `object` is among the pending event's inserted objects; the answer for the
    /// object asked last is remembered until the event changes (``lastPendingInsert``).
    @inline(__always)
    private func isInsertedInPendingEvent(_ object: ManagedObject) -> Bool {
        let id = ObjectIdentifier(object)
        if lastPendingInsert == id { return true }
        guard pendingEvent.inserted.contains(object) else { return false }
        lastPendingInsert = id
        return true
    }

    /// Whether changes register undo actions now.
    private var isRegisteringUndo: Bool {
        guard let undoManager else { return false }
        return undoManager.isUndoRegistrationEnabled && !isRestoring
    }

    /// Registers an undo action for a change of `object`. The action holds the object (an undo
    /// manager holds its targets weakly, and a deleted object may have no other owner) and
    /// targets the context, so `removeAllActions(withTarget: context)` clears the context's
    /// actions.
    private func registerUndo(for object: ManagedObject, _ action: @escaping (ManagedObjectContext, ManagedObject) -> Void) {
        guard let undoManager, undoManager.isUndoRegistrationEnabled, !isRestoring else { return }
        try? undoManager.registerUndo(withTarget: self) { context in action(context, object) }
    }
}
