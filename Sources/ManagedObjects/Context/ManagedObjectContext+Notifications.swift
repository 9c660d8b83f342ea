// Notifications: objects-did-change, will-save and did-save, through NotificationCenter (Apple's
// names and user-info keys) and through typed callbacks.
import Foundation

extension ManagedObjectContext {
    /// Posted by ``processPendingChanges()`` when registered objects were inserted, updated,
    /// deleted or refreshed since the last time (Apple:
    /// `NSManagedObjectContextObjectsDidChange`). The object is the context; the user info holds
    /// `Set<ManagedObject>` values under ``ChangeKey/inserted`` and the other keys.
    public static let objectsDidChangeNotification = Notification.Name("NSManagedObjectContextObjectsDidChangeNotification")
    /// Posted at the start of ``save()`` (Apple: `NSManagedObjectContextWillSave`); no user info.
    public static let willSaveNotification = Notification.Name("NSManagedObjectContextWillSaveNotification")
    /// Posted after a save reached the stores (Apple: `NSManagedObjectContextDidSave`): the saved
    /// objects under ``ChangeKey/inserted``, ``ChangeKey/updated``, ``ChangeKey/deleted``, and
    /// their IDs under ``ChangeKey/insertedObjectIDs`` and the like.
    public static let didSaveNotification = Notification.Name("NSManagedObjectContextDidSaveNotification")

    /// The user-info keys of the context's notifications, with Apple's strings
    /// (Apple: `NSManagedObjectContext.NotificationKey`).
    public enum ChangeKey: String, Sendable, CaseIterable {
        /// Inserted objects (`Set<ManagedObject>`; Apple: `NSInsertedObjectsKey`).
        case inserted
        /// Updated objects (Apple: `NSUpdatedObjectsKey`).
        case updated
        /// Deleted objects (Apple: `NSDeletedObjectsKey`).
        case deleted
        /// Refreshed objects (Apple: `NSRefreshedObjectsKey`).
        case refreshed
        /// Invalidated objects (Apple: `NSInvalidatedObjectsKey`).
        case invalidated
        /// `true` when every object was invalidated (``reset()``; Apple: `NSInvalidatedAllObjectsKey`).
        case invalidatedAll
        /// IDs of inserted objects (`Set<ManagedObjectID>`; Apple: `NSInsertedObjectIDsKey`).
        case insertedObjectIDs = "inserted_objectIDs"
        /// IDs of updated objects (Apple: `NSUpdatedObjectIDsKey`).
        case updatedObjectIDs = "updated_objectIDs"
        /// IDs of deleted objects (Apple: `NSDeletedObjectIDsKey`).
        case deletedObjectIDs = "deleted_objectIDs"
    }

    /// One batch of changes, as the typed callbacks receive it (the same sets as the
    /// notifications' user info).
    public struct Changes {
        /// Inserted objects.
        public var inserted: Set<ManagedObject> = []
        /// Updated objects.
        public var updated: Set<ManagedObject> = []
        /// Deleted objects.
        public var deleted: Set<ManagedObject> = []
        /// Refreshed objects.
        public var refreshed: Set<ManagedObject> = []
        /// Objects that left the context because their store row is gone (a merged delete, a
        /// conflict with a delete) (Apple: `NSInvalidatedObjectsKey`).
        public var invalidated: Set<ManagedObject> = []
        /// Whether every object was invalidated (a reset).
        public var invalidatedAll = false

        /// Whether nothing changed.
        public var isEmpty: Bool {
            inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty && invalidated.isEmpty && !invalidatedAll
        }

        /// The user info of a notification: Apple's keys, sets of objects and of IDs.
        public var userInfo: [AnyHashable: Any] {
            var info: [AnyHashable: Any] = [:]
            if !inserted.isEmpty { info[ChangeKey.inserted.rawValue] = inserted }
            if !updated.isEmpty { info[ChangeKey.updated.rawValue] = updated }
            if !deleted.isEmpty { info[ChangeKey.deleted.rawValue] = deleted }
            if !refreshed.isEmpty { info[ChangeKey.refreshed.rawValue] = refreshed }
            if !invalidated.isEmpty { info[ChangeKey.invalidated.rawValue] = invalidated }
            if invalidatedAll { info[ChangeKey.invalidatedAll.rawValue] = true }
            return info
        }
    }

    /// What a did-save reports: the saved objects and their (permanent) IDs.
    public struct SaveResult: Sendable {
        /// IDs of the inserted objects, after the save (permanent).
        public var insertedObjectIDs: Set<ManagedObjectID> = []
        /// IDs of the updated objects.
        public var updatedObjectIDs: Set<ManagedObjectID> = []
        /// IDs of the deleted objects.
        public var deletedObjectIDs: Set<ManagedObjectID> = []

        /// Creates a save result: the IDs of a save's inserted, updated and deleted objects
        /// (for ``ManagedObjectContext/mergeChanges(fromRemoteSave:into:)``).
        public init(insertedObjectIDs: Set<ManagedObjectID> = [], updatedObjectIDs: Set<ManagedObjectID> = [],
                    deletedObjectIDs: Set<ManagedObjectID> = []) {
            self.insertedObjectIDs = insertedObjectIDs
            self.updatedObjectIDs = updatedObjectIDs
            self.deletedObjectIDs = deletedObjectIDs
        }
    }

    /// Calls `handler` with each batch of changes ``processPendingChanges()`` reports, on the
    /// context's thread, until the returned token is released or cancelled.
    ///
    /// The handler runs where the context works: register it where the context may be used
    /// (a private-queue context's handler inside its ``perform(_:)`` block, a main-queue
    /// context's on the main actor). Registering off the context's queue stops the process with
    /// a message, as any other use there does, because the handler would otherwise run on the
    /// context's queue with whatever state the registering code captured.
    ///
    /// - Parameter handler: Receives the changes.
    /// - Returns: The registration; keep it as long as you want the callbacks.
    public func onObjectsDidChange(_ handler: @escaping (Changes) -> Void) -> ContextObservation {
        enterConfinement("onObjectsDidChange(_:)")
        defer { exitConfinement() }
        let token = ContextObservation(context: self)
        changeHandlers.append((ObjectIdentifier(token), handler))
        return token
    }

    /// Calls `handler` after each successful save with the saved IDs, until the returned token
    /// is released or cancelled.
    ///
    /// The handler runs on the context's queue. As for ``onObjectsDidChange(_:)``, register it
    /// where the context may be used (inside a private-queue context's ``perform(_:)`` block);
    /// registering elsewhere stops the process with a message. To merge a background context's
    /// saves into the view context, set the view context's
    /// `automaticallyMergesChangesFromParent`.
    public func onDidSave(_ handler: @escaping (SaveResult, Changes) -> Void) -> ContextObservation {
        enterConfinement("onDidSave(_:)")
        defer { exitConfinement() }
        let token = ContextObservation(context: self)
        saveHandlers.append((ObjectIdentifier(token), handler))
        return token
    }

    package func removeHandlers(of token: ObjectIdentifier) {
        changeHandlers.removeAll { $0.token == token }
        saveHandlers.removeAll { $0.token == token }
    }

    package func postObjectsDidChange(_ changes: Changes) {
        for (_, handler) in changeHandlers { handler(changes) }
        notificationCenter.post(name: Self.objectsDidChangeNotification, object: self, userInfo: changes.userInfo)
    }

    package func postDidSave(_ result: SaveResult, _ changes: Changes) {
        for (_, handler) in saveHandlers { handler(result, changes) }
        var info = changes.userInfo
        info[ChangeKey.insertedObjectIDs.rawValue] = result.insertedObjectIDs
        info[ChangeKey.updatedObjectIDs.rawValue] = result.updatedObjectIDs
        info[ChangeKey.deletedObjectIDs.rawValue] = result.deletedObjectIDs
        notificationCenter.post(name: Self.didSaveNotification, object: self, userInfo: info)
        notifyAutoMergingContexts(of: result)
    }
}

/// A registration of a context callback; releasing it (or ``cancel()``) ends the callbacks.
public final class ContextObservation {
    private weak var context: ManagedObjectContext?

    init(context: ManagedObjectContext) { self.context = context }

    /// Ends the callbacks.
    public func cancel() {
        context?.removeHandlers(of: ObjectIdentifier(self))
        context = nil
    }

    deinit { context?.removeHandlers(of: ObjectIdentifier(self)) }
}
