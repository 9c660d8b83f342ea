// Merging: another context's saved changes, or another coordinator's or process's, brought into
// this context.
import Foundation
import KeyValueCoding

extension ManagedObjectContext {
    /// Brings another context's saved changes into this one (Apple:
    /// `mergeChanges(fromContextDidSave:)`).
    ///
    /// - Registered objects the other context updated are refreshed keeping their unsaved
    ///   changes (``refresh(_:mergeChanges:)`` with `true`): their observers see each value that
    ///   changes, and they are reported as refreshed. Registered faults stay faults (they load
    ///   the new values when used).
    /// - Objects the other context inserted are faulted in: registered here as faults and
    ///   reported as inserted (they are not in ``insertedObjects``: nothing is left to save).
    ///   Those registered here already (a fetch, or a relationship, brought them in between
    ///   the save and the merge) are reported as inserted as well, so that a fetched results
    ///   controller takes each of them in once; not objects this context inserted or deleted
    ///   itself, nor those a child knew by temporary IDs that the save made permanent.
    ///   In a child, a sibling's inserts that the parent holds unsaved are faulted in under
    ///   their temporary IDs; when the parent saves them, the merge of its save gives those
    ///   objects their permanent IDs (the same objects: one object per row).
    /// - Registered objects the other context deleted leave this context, unsaved changes and
    ///   all: they are removed from the related objects here (without making those changed),
    ///   their ``ManagedObject/managedObjectContext`` becomes `nil`, and they are reported as
    ///   deleted and invalidated.
    ///
    /// Ends with ``processPendingChanges()``, which posts ``objectsDidChangeNotification``.
    ///
    /// - Parameter result: The other context's ``SaveResult`` (from ``onDidSave(_:)``).
    /// - Complexity: O(*n*) in the number of saved objects registered here.
    public func mergeChanges(from result: SaveResult) {
        enterConfinement("mergeChanges(from:)")
        defer { exitConfinement() }
        var result = result
        // The objects a child knows by temporary IDs: one that the merged save gave its
        // permanent ID was reported when it came here, not again.
        var knownByTemporaryID = Set<ManagedObject>()
        if parent != nil {
            for id in parentTemporaryIDs { if let object = registered[id] { knownByTemporaryID.insert(object) } }
            // One object per row: objects known here by temporary IDs that the chain has saved
            // since take their permanent IDs first, and the save's temporary IDs are read as
            // the IDs that name their objects now.
            adoptPermanentIDsFromParent()
            result = resolvingTemporaryIDs(of: result)
        }
        // A temporary ID names an object for a child (a sibling's insert its parent holds
        // unsaved), not for a context on a coordinator.
        for id in result.insertedObjectIDs where parent != nil || !id.isTemporaryID {
            // An object registered here already (fetched, or faulted in through a
            // relationship, after the other save) is reported too (Apple reports every object
            // of the save's inserted set), so that a fetched results controller that did not
            // hold it yet takes it in; one that holds it keeps it in its place. Objects this
            // context inserts or deletes itself are its own changes, not the merge's.
            if let object = registered[id] {
                guard !inserted.contains(object), !deleted.contains(object),
                      !knownByTemporaryID.contains(object) else { continue }
                pendingEvent.inserted.insert(object)
                continue
            }
            guard let object = try? fault(for: id) else { continue }
            pendingEvent.inserted.insert(object)
        }
        for id in result.updatedObjectIDs {
            guard let object = registered[id], !object.faultFlag else { continue }
            refresh(object, mergeChanges: true)
        }
        for id in result.deletedObjectIDs {
            if let object = registered[id] { forgetObjectDeletedElsewhere(object) }
        }
        processPendingChanges()
    }

    /// Brings the changes of another context's ``didSaveNotification`` into this one (Apple:
    /// `mergeChanges(fromContextDidSave:)`); see ``mergeChanges(from:)``.
    ///
    /// A did-save of a context on another coordinator (of the same stores), and a notification
    /// without a context (a history transaction's
    /// ``PersistentHistoryTransaction/objectIDNotification()``), is merged as a remote save:
    /// this coordinator's cached rows of the saved objects are dropped first.
    ///
    /// - Parameter notification: A did-save notification of another context.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        let result = Self.saveResult(from: notification.userInfo ?? [:], coordinator: coordinator)
        // A did-save of another coordinator, or one with no context (a history transaction's
        // objectIDNotification()), is a save made elsewhere: cached rows are stale.
        let saver = notification.object as? ManagedObjectContext
        if saver == nil || saver?.coordinator !== coordinator {
            mergeRemoteSave(result)
        } else {
            mergeChanges(from: result)
        }
    }

    /// Brings a save made by another coordinator or process into contexts (Apple:
    /// `mergeChanges(fromRemoteContextSave:into:)`): the coordinators forget their cached rows
    /// of the saved objects, then each context merges the save as
    /// ``mergeChanges(from:)`` does, reading the updated objects' rows from the store.
    ///
    /// ```swift
    /// // In the process that saved: send the URIs.
    /// let uris = result.updatedObjectIDs.map { $0.uriRepresentation() }
    /// // In this process:
    /// ManagedObjectContext.mergeChanges(fromRemoteContextSave: ["updated": uris], into: [viewContext])
    /// ```
    ///
    /// - Parameters:
    ///   - changes: Object IDs or their URIs (`[ManagedObjectID]`, `Set<ManagedObjectID>`,
    ///     `[URL]`) under ``ChangeKey/inserted``, ``ChangeKey/updated`` and
    ///     ``ChangeKey/deleted`` (or the `…_objectIDs` keys of a did-save). URIs the coordinator
    ///     does not know are skipped.
    ///   - contexts: The contexts to merge into.
    public static func mergeChanges(fromRemoteContextSave changes: [AnyHashable: Any], into contexts: [ManagedObjectContext]) {
        for context in contexts {
            context.mergeRemoteSave(saveResult(from: changes, coordinator: context.coordinator))
        }
    }

    /// Brings a save made by another coordinator or process into contexts, by object ID; see
    /// ``mergeChanges(fromRemoteContextSave:into:)``.
    ///
    /// - Parameters:
    ///   - result: The IDs of the other save's objects.
    ///   - contexts: The contexts to merge into.
    public static func mergeChanges(fromRemoteSave result: SaveResult, into contexts: [ManagedObjectContext]) {
        for context in contexts { context.mergeRemoteSave(result) }
    }

    private func mergeRemoteSave(_ result: SaveResult) {
        coordinator?.rowCache.remove(result.insertedObjectIDs.union(result.updatedObjectIDs).union(result.deletedObjectIDs))
        mergeChanges(from: result)
    }

    /// The IDs of a did-save's user info, or of a remote save's dictionary.
    private static func saveResult(from info: [AnyHashable: Any], coordinator: PersistentStoreCoordinator?) -> SaveResult {
        func ids(_ keys: ChangeKey...) -> Set<ManagedObjectID> {
            var found = Set<ManagedObjectID>()
            for key in keys {
                switch info[key.rawValue] {
                case let set as Set<ManagedObjectID>: found.formUnion(set)
                case let array as [ManagedObjectID]: found.formUnion(array)
                case let objects as Set<ManagedObject>: found.formUnion(objects.map(\.objectID))
                case let uris as [URL]: found.formUnion(uris.compactMap { coordinator?.managedObjectID(forURIRepresentation: $0) })
                case let uris as Set<URL>: found.formUnion(uris.compactMap { coordinator?.managedObjectID(forURIRepresentation: $0) })
                case let mixed as [Any]:
                    for element in mixed {
                        if let id = element as? ManagedObjectID { found.insert(id) }
                        if let uri = element as? URL, let id = coordinator?.managedObjectID(forURIRepresentation: uri) { found.insert(id) }
                    }
                default: break
                }
            }
            return found
        }
        return SaveResult(insertedObjectIDs: ids(.insertedObjectIDs, .inserted),
                          updatedObjectIDs: ids(.updatedObjectIDs, .updated),
                          deletedObjectIDs: ids(.deletedObjectIDs, .deleted))
    }

    /// Takes an object whose store row is gone out of the context: out of the change sets, out
    /// of the related objects' inverses (without making them changed), unregistered; reported
    /// as deleted and invalidated by the next ``processPendingChanges()``.
    package func forgetObjectDeletedElsewhere(_ object: ManagedObject) {
        if !object.faultFlag { detachFromRelatedObjects(object) }
        inserted.remove(object)
        updated.remove(object)
        deleted.remove(object)
        pendingEvent.inserted.remove(object)
        pendingEvent.refreshed.remove(object)
        pendingEvent.deleted.insert(object)
        pendingEvent.invalidated.insert(object)
        unregister(object)
    }

    /// Removes `object` from the inverse relationships of the loaded objects it is related to,
    /// telling their observers, without recording changes.
    package func detachFromRelatedObjects(_ object: ManagedObject) {
        let wasRestoring = isRestoring
        isRestoring = true
        defer { isRestoring = wasRestoring }
        for (slot, property) in object.layout.properties.enumerated() {
            guard case .relationship(let relationship) = property, let inverseName = relationship.inverseName else { continue }
            for target in Self.members(object.slotValue(slot))
            where target.managedObjectContext === self && !target.faultFlag {
                // An inverse not loaded yet loads from the store, which no longer has the object.
                guard let inverseSlot = target.layout.slotByName[inverseName],
                      !target.isRelationshipFaulted(slot: inverseSlot) else { continue }
                let value = target.slotValue(inverseSlot)
                let remaining: Any?
                switch value {
                case let one as ManagedObject: remaining = one === object ? nil : one
                case var set as Set<ManagedObject>: set.remove(object); remaining = set
                case let array as [ManagedObject]: remaining = array.filter { $0 !== object }
                default: continue
                }
                guard !ManagedObject.sameValue(value, remaining) else { continue }
                target.willChangeValue(forKey: inverseName)
                target.storeLoadedSlotValue(remaining, inverseSlot)
                target.didChangeValue(forKey: inverseName)
                updateCommittedValue(remaining, slot: inverseSlot, of: target)
            }
        }
    }
}
