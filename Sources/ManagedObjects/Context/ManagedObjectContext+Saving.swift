// Saving: permanent IDs, one save per store, committed values moved forward.
import Foundation
import KeyValueCoding
import Predicates

extension ManagedObjectContext {
    /// Writes the context's inserts, changes and deletes to the stores (Apple: `save()`).
    ///
    /// Inserted objects get permanent IDs (their store's), each store receives one atomic save
    /// of its objects, and on success the current values become the committed ones. On failure
    /// nothing is committed: the objects keep their temporary IDs and their changes, and the
    /// error says why (a store conflict, a validation failure).
    ///
    /// Conflicts with the store (a row changed since it was read, a uniqueness constraint) go to
    /// the ``mergePolicy``; after it resolves them the write is tried again.
    ///
    /// - Throws: ``ManagedObjectContextError/noStore(_:)`` when no store holds an entity,
    ///   ``ManagedObjectMergeError`` for conflicts the merge policy does not resolve (the
    ///   default, ``MergePolicy/error``, resolves none), ``StoreSaveError`` from a store.
    public func save() throws {
        enterConfinement("save()")
        defer { exitConfinement() }
        if let parent { return try saveIntoParent(parent) }
        processPendingChanges()
        guard hasChanges else { return }
        notificationCenter.post(name: Self.willSaveNotification, object: self)
        for object in inserted.union(updated).union(deleted) { object.willSave() }
        processPendingChanges()
        guard let coordinator else {
            throw ManagedObjectContextError.noStore((inserted.first ?? updated.first ?? deleted.first)?.entity.name ?? "")
        }
        var newObjects = inserted.sorted(by: Self.saveOrder)
        try validateForSave(inserted: newObjects)
        // Validation computes derived attributes (never inserts), yet it runs user code
        // (`validateForInsert` overrides): take the inserted objects again if they changed.
        if newObjects.count != inserted.count || !newObjects.allSatisfy(inserted.contains) {
            newObjects = inserted.sorted(by: Self.saveOrder)
        }
        var storeOf: [ObjectIdentifier: any PersistentStore] = [:]
        for object in newObjects {
            guard let store = coordinator.store(forEntityNamed: object.entity.name) else {
                throw ManagedObjectContextError.noStore(object.entity.name)
            }
            storeOf[ObjectIdentifier(object)] = store
        }
        let temporaryIDs = newObjects.map(\.objectID)
        try assignPermanentIDs(to: newObjects, storeOf: storeOf)
        do {
            // Conflicts are resolved by the merge policy and the write tried again
            // (ManagedObjectContext+Conflicts.swift).
            try writeResolvingConflicts(storeOf: storeOf, coordinator: coordinator)
        } catch {
            for (object, id) in zip(newObjects, temporaryIDs) where inserted.contains(object) { reassign(object, to: id) }
            throw error
        }
        rememberPermanentIDs(of: newObjects, temporaryIDs: temporaryIDs)
        let saved = Changes(inserted: inserted.objects, updated: updated.objects, deleted: deleted.objects)
        let result = SaveResult(insertedObjectIDs: Set(inserted.map(\.objectID)),
                                updatedObjectIDs: Set(updated.map(\.objectID)),
                                deletedObjectIDs: Set(deleted.map(\.objectID)))
        commitChanges()
        conflictChecked.removeAll()
        for object in saved.inserted.union(saved.updated).union(saved.deleted) { object.didSave() }
        postDidSave(result, saved)
    }

    /// Checks the changes before a save: derived attributes computed, then
    /// `validateForInsert`, `validateForUpdate` and `validateForDelete` of every changed object;
    /// every failure is collected into one error.
    ///
    /// - Throws: ``ManagedObjectValidationError`` (one, or a multiple-errors error).
    package func validateForSave() throws {
        try validateForSave(inserted: inserted.sorted(by: Self.saveOrder))
    }

    /// ``validateForSave()`` with the inserted objects already in save order.
    private func validateForSave(inserted newObjects: [ManagedObject]) throws {
        var errors: [ManagedObjectValidationError] = []
        func check(_ body: () throws -> Void) throws {
            do { try body() } catch let error as ManagedObjectValidationError { errors += error.errors }
        }
        let changed = updated.sorted(by: Self.saveOrder)
        for object in newObjects {
            try object.computeDerivedAttributes()
            try check(object.validateForInsert)
        }
        for object in changed {
            try object.computeDerivedAttributes()
            try check(object.validateForUpdate)
        }
        for object in deleted.sorted(by: Self.saveOrder) { try check(object.validateForDelete) }
        // Only objects with relationships can relate to foreign objects (no sort of the others).
        let related = (newObjects + changed).filter { !$0.layout.relationshipSlots.isEmpty }
        for object in related.sorted(by: Self.saveOrder) { errors += foreignRelationshipErrors(of: object) }
        if let error = ManagedObjectValidationError.combining(errors) { throw error }
    }

    /// The order objects are saved and validated in: the order they were registered, so keys
    /// are given in insert order and errors come in a stable order.
    /// Errors for related objects that are not in this context (registered in another context,
    /// or in none: deleted by an earlier save, or never inserted); a typed property cannot throw
    /// when it is set, so the save says it.
    private func foreignRelationshipErrors(of object: ManagedObject) -> [ManagedObjectValidationError] {
        var errors: [ManagedObjectValidationError] = []
        for slot in object.layout.relationshipSlots where object.layout.slotTraits[slot].isSaved {
            guard case .relationship(let relationship) = object.layout.properties[slot] else { continue }
            for target in Self.members(object.slotValue(slot)) where target.managedObjectContext !== self {
                let whereabouts = target.managedObjectContext == nil ? "in no context (deleted by a save, or never inserted)" : "in another context"
                errors.append(ManagedObjectValidationError(.managedObjectValidation, entity: object.entity.name, key: relationship.name,
                                                           reason: "the related object \(target.objectID) is \(whereabouts)")
                    .attributed(toObject: object.objectID.description))
            }
        }
        return errors
    }

    package static func saveOrder(_ a: ManagedObject, _ b: ManagedObject) -> Bool {
        a.registrationSequence < b.registrationSequence
    }

    private func assignPermanentIDs(to objects: [ManagedObject], storeOf: [ObjectIdentifier: any PersistentStore]) throws {
        var groups: [ObjectIdentifier: [ManagedObject]] = [:]
        for object in objects where object.objectID.isTemporaryID { groups[ObjectIdentifier(storeOf[ObjectIdentifier(object)]!), default: []].append(object) }
        var assigned: [(ManagedObject, ManagedObjectID)] = []
        for group in groups.values {
            let store = storeOf[ObjectIdentifier(group[0])]!
            let ids = try checkedNewObjectIDs(from: store, for: group.map { $0.entity.name })
            assigned += zip(group, ids).map { ($0, $1) }
        }
        for (object, id) in assigned { reassign(object, to: id) }
    }

    /// Re-registers an object under a new ID.
    package func reassign(_ object: ManagedObject, to id: ManagedObjectID) {
        registered[object.objectID] = nil
        object.objectID = id
        registered[id] = object
    }

    package func writeChanges(newObjects: [ManagedObject], storeOf: [ObjectIdentifier: any PersistentStore],
                              coordinator: PersistentStoreCoordinator) throws {
        var changes: [ObjectIdentifier: StoreSaveChanges] = [:]
        var stores: [ObjectIdentifier: any PersistentStore] = [:]
        // Whether each store records persistent history (one dynamic cast per store, not per object).
        var tracking: [ObjectIdentifier: Bool] = [:]
        func recordsHistory(_ store: any PersistentStore) -> Bool {
            if let known = tracking[ObjectIdentifier(store)] { return known }
            let answer = (store as? any PersistentHistoryStore)?.tracksPersistentHistory ?? false
            tracking[ObjectIdentifier(store)] = answer
            return answer
        }
        func add(_ store: any PersistentStore, _ edit: (inout StoreSaveChanges) -> Void) {
            let key = ObjectIdentifier(store)
            stores[key] = store
            edit(&changes[key, default: StoreSaveChanges()])   // in place: no copy per object
        }
        for object in newObjects {
            let row = row(of: object)
            add(storeOf[ObjectIdentifier(object)]!) { $0.inserted.append(row) }
        }
        for object in updated {
            let changedValues = object.changedValues()
            if changedValues.isEmpty { continue }
            guard let store = object.objectID.storeIdentifier.flatMap(coordinator.store(withIdentifier:)) else {
                throw ManagedObjectContextError.noStore(object.entity.name)
            }
            let row = row(of: object)
            let names = recordsHistory(store) ? Set(changedValues.keys) : nil
            add(store) {
                $0.updated.append(row)
                if let names { $0.updatedPropertyNames[row.objectID] = names }
            }
        }
        for object in deleted {
            guard let store = object.objectID.storeIdentifier.flatMap(coordinator.store(withIdentifier:)) else { continue }
            let entry = (object.objectID, object.storeVersion)
            add(store) { $0.deleted.append(entry) }
        }
        for object in conflictChecked where object.managedObjectContext === self && !object.objectID.isTemporaryID
            && !updated.contains(object) && !deleted.contains(object) {
            guard let store = object.objectID.storeIdentifier.flatMap(coordinator.store(withIdentifier:)) else { continue }
            let entry = (object.objectID, object.storeVersion)
            add(store) { $0.locked.append(entry) }
        }
        for (key, var storeChanges) in changes where !storeChanges.isEmpty {
            storeChanges.transactionAuthor = transactionAuthor
            storeChanges.contextName = name
            let versions = try stores[key]!.save(storeChanges)
            for (id, version) in versions { registered[id]?.storeVersion = version }
            coordinator.rowCache.store(saved: storeChanges, versions: versions)
        }
    }

    /// The row of an object's saved properties, with its current version.
    package func row(of object: ManagedObject) -> StoreRow {
        var row = StoreRow(objectID: object.objectID, version: object.storeVersion)
        let layout = object.layout
        row.attributes.reserveCapacity(layout.slotTraits.count - layout.relationshipSlots.count)
        for slot in layout.slotTraits.indices where layout.slotTraits[slot].isSaved {
            // The traits say what the slot holds without copying its property description.
            if let type = layout.slotTraits[slot].attributeType {
                if let value = object.slotValue(slot) {
                    row.attributes[layout.keys[slot]] = AttributeValueConversion.constant(of: value, type: type)
                }
            } else if case .relationship(let relationship) = layout.properties[slot] {
                row.relationships[relationship.name] = Self.members(object.slotValue(slot)).map(\.objectID)
            }
        }
        return row
    }
}
