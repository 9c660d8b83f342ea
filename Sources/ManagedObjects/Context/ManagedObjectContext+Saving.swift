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
        // The event's inserts as they came, and the set the event's notification gives them:
        // the did-save's inserted objects when the save's are the same (below).
        let eventInserts = storedPendingEvent.inserted.isEmpty ? pendingEventInserts : []
        let eventInserted = eventInserts.isEmpty ? [] : pendingEvent.inserted
        processPendingChanges()
        guard hasChanges else { return }
        notificationCenter.post(name: Self.willSaveNotification, object: self)
        callWillSave()
        processPendingChanges()
        guard let coordinator else {
            throw ManagedObjectContextError.noStore((inserted.first ?? updated.first ?? deleted.first)?.entity.name ?? "")
        }
        var newObjects = Self.inSaveOrder(inserted)
        try validateForSave(inserted: newObjects)
        // Validation computes derived attributes (never inserts), yet it runs user code
        // (`validateForInsert` overrides): take the inserted objects again if they changed.
        if newObjects.count != inserted.count || !newObjects.allSatisfy(inserted.contains) {
            newObjects = Self.inSaveOrder(inserted)
        }
        // The store of each entity's objects, by the identity of their layout (one per entity
        // and class): a handful of entries, not one per object. Objects come in runs of one
        // entity: the store is asked once per run (a locked search).
        var storeOf: [ObjectIdentifier: any PersistentStore] = [:]
        var lastLayout: EntityLayout?
        for object in newObjects where object.layout !== lastLayout {
            lastLayout = object.layout
            guard storeOf[ObjectIdentifier(object.layout)] == nil else { continue }
            guard let store = coordinator.store(forEntityNamed: object.entity.name) else {
                throw ManagedObjectContextError.noStore(object.entity.name)
            }
            storeOf[ObjectIdentifier(object.layout)] = store
        }
        // The IDs the new objects have before the save (`nil`: none was made yet; the object
        // takes its permanent ID without a temporary one first); empty when none has one.
        let temporaryIDs = Self.knownIDs(of: newObjects)
        try assignPermanentIDs(to: newObjects, storeOf: storeOf)
        do {
            // Conflicts are resolved by the merge policy and the write tried again
            // (ManagedObjectContext+Conflicts.swift).
            try writeResolvingConflicts(storeOf: storeOf, coordinator: coordinator, sortedInserted: newObjects)
        } catch {
            var temporaryOf: [ManagedObjectID: ManagedObjectID] = [:]
            for (index, object) in newObjects.enumerated() where inserted.contains(object) {
                let permanent = object.objectID
                restoreID(of: object, to: temporaryIDs.isEmpty ? nil : temporaryIDs[index])
                temporaryOf[permanent] = object.objectID
            }
            // The waiting objects are back on their temporary IDs (or none).
            unindexedInsertsHavePermanentIDs = false
            // The objects are back on their temporary IDs: the conflicts name them so.
            guard var mergeError = error as? ManagedObjectMergeError, !temporaryOf.isEmpty else { throw error }
            for index in mergeError.constraintConflicts.indices {
                mergeError.constraintConflicts[index].conflictingObjectIDs = mergeError.constraintConflicts[index]
                    .conflictingObjectIDs.map { temporaryOf[$0] ?? $0 }
            }
            throw mergeError
        }
        rememberPermanentIDs(of: newObjects, temporaryIDs: temporaryIDs)
        // The usual insert-then-save: the objects inserted are those of the event the save
        // began with, one for one; their set is made once, for both notifications.
        let savedInserted = Self.holds(inserted, exactly: eventInserts) ? eventInserted : inserted.objects
        let saved = Changes(inserted: savedInserted, updated: updated.objects, deleted: deleted.objects)
        let result = SaveResult(insertedObjectIDs: Self.objectIDs(of: inserted),
                                updatedObjectIDs: Self.objectIDs(of: updated),
                                deletedObjectIDs: Self.objectIDs(of: deleted))
        // The objects of `saved`, in arrays (commitChanges empties the sets): their didSave()
        // calls walk the arrays' storage, not the sets' buckets.
        let savedObjects = (inserted.ordered, updated.ordered, deleted.ordered)
        commitChanges()
        conflictChecked.removeAll()
        // Each set on its own (an object is in one of them): no union of thousands of objects.
        Self.forEach(of: savedObjects.0) { $0.didSave() }
        Self.forEach(of: savedObjects.1) { $0.didSave() }
        Self.forEach(of: savedObjects.2) { $0.didSave() }
        postDidSave(result, saved)
    }

    /// The IDs `objects` have now (``ManagedObject/knownObjectID``), in order; empty when
    /// none has one (the usual save of new objects: no array of `nil`s made and destroyed).
    static func knownIDs(of objects: [ManagedObject]) -> [ManagedObjectID?] {
        let anyKnown = objects.withUnsafeBufferPointer { objects in objects.contains { $0.knownObjectID != nil } }
        return anyKnown ? objects.map(\.knownObjectID) : []
    }

    /// Whether `set` holds the objects of `objects` (non-empty) and no other, in their order:
    /// a comparison of identities, no hashing.
    static func holds(_ set: TrackedObjectSet, exactly objects: [ManagedObject]) -> Bool {
        guard !objects.isEmpty, set.count == objects.count else { return false }
        return set.ordered.withUnsafeBufferPointer { members in
            objects.withUnsafeBufferPointer { given in
                for i in 0..<given.count where members[i] !== given[i] { return false }
                return true
            }
        }
    }

    /// The IDs of the objects of `set`, put in a set of their number at once (no array of
    /// them first, no growth by doubling), without comparisons: the objects are registered
    /// in this context, whose registry gives each ID one object (``DistinctSet``).
    private static func objectIDs(of set: TrackedObjectSet) -> Set<ManagedObjectID> {
        DistinctSet.objectIDs(of: set.ordered)
    }

    /// Calls `willSave()` of every inserted, updated and deleted object (Apple: once per
    /// object about to be saved). The sets as they are now (an object is in one of them at a
    /// time): changes the calls make are saved, they do not add calls.
    package func callWillSave() {
        // The sets' arrays, held here while the calls run (user code may change the sets).
        let (insertedNow, updatedNow, deletedNow) = (inserted.ordered, updated.ordered, deleted.ordered)
        Self.forEach(of: insertedNow) { $0.willSave() }
        Self.forEach(of: updatedNow) { $0.willSave() }
        Self.forEach(of: deletedNow) { $0.willSave() }
    }

    /// Calls `body` with each object of `objects`, read through the array's storage as
    /// `Unmanaged` references: no reference counting per object (the array, which the caller
    /// keeps, holds them; an element read as a `ManagedObject` is retained and released).
    @inline(__always)
    private static func forEach(of objects: [ManagedObject], _ body: (ManagedObject) throws -> Void) rethrows {
        try objects.withUnsafeBufferPointer { objects in
            try objects.withMemoryRebound(to: Unmanaged<ManagedObject>.self) { objects in
                for object in objects { try object._withUnsafeGuaranteedRef(body) }
            }
        }
    }

    /// Checks the changes before a save: derived attributes computed, then
    /// `validateForInsert`, `validateForUpdate` and `validateForDelete` of every changed object;
    /// every failure is collected into one error.
    ///
    /// - Throws: ``ManagedObjectValidationError`` (one, or a multiple-errors error).
    package func validateForSave() throws {
        try validateForSave(inserted: Self.inSaveOrder(inserted))
    }

    /// ``validateForSave()`` with the inserted objects already in save order.
    private func validateForSave(inserted newObjects: [ManagedObject]) throws {
        var errors: [ManagedObjectValidationError] = []
        // Validation errors are collected; any other error ends the save (written out, not as
        // a closure: one call per object, no dynamic exclusivity check of `errors`).
        let changed = Self.inSaveOrder(updated)
        for object in newObjects {
            if !object.layout.derivedSlots.isEmpty { try object.computeDerivedAttributes() }
            do { try object.validateForInsert() } catch let error as ManagedObjectValidationError { errors += error.errors }
        }
        for object in changed {
            if !object.layout.derivedSlots.isEmpty { try object.computeDerivedAttributes() }
            do { try object.validateForUpdate() } catch let error as ManagedObjectValidationError { errors += error.errors }
        }
        for object in Self.inSaveOrder(deleted) {
            do { try object.validateForDelete() } catch let error as ManagedObjectValidationError { errors += error.errors }
        }
        // Only objects with relationships can relate to foreign objects (no sort of the others).
        let related = newObjects.filter { !$0.layout.relationshipSlots.isEmpty } + changed.filter { !$0.layout.relationshipSlots.isEmpty }
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
            // A relationship fault holds the store's members: none of them was set here.
            guard !object.isRelationshipFaulted(slot: slot),
                  case .relationship(let relationship) = object.layout.properties[slot] else { continue }
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

    /// The objects of `set` in save order (``saveOrder(_:_:)``).
    ///
    /// Registration sequences are distinct (one counter per context); when they span at most
    /// four times as many numbers as there are objects (the usual case: objects inserted since
    /// the last save), each object is put at its place directly, O(*n*) with no comparisons;
    /// otherwise they are sorted.
    package static func inSaveOrder(_ set: TrackedObjectSet) -> [ManagedObject] {
        guard set.count > 1 else { return Array(set) }
        // Objects inserted one after another and never removed are in order already.
        let members = set.ordered
        var isAscending = true
        var previous = members[0].registrationSequence
        for object in members.dropFirst() {
            let sequence = object.registrationSequence
            if sequence <= previous { isAscending = false; break }
            previous = sequence
        }
        if isAscending { return members }
        var lowest = UInt64.max, highest = UInt64.min
        for object in set {
            lowest = Swift.min(lowest, object.registrationSequence)
            highest = Swift.max(highest, object.registrationSequence)
        }
        let span = highest - lowest
        guard span < UInt64(4 * set.count) else { return set.sorted(by: saveOrder) }
        var places = [ManagedObject?](repeating: nil, count: Int(span) + 1)
        for object in set { places[Int(object.registrationSequence - lowest)] = object }
        var ordered: [ManagedObject] = []
        ordered.reserveCapacity(set.count)
        for case let object? in places { ordered.append(object) }
        // Two objects with one sequence (never made by a context) would share a place: sorted then.
        return ordered.count == set.count ? ordered : set.sorted(by: saveOrder)
    }

    /// Writes the changes to the stores: one save per store.
    ///
    /// - Parameters:
    ///   - newObjects: The inserted objects in save order.
    ///   - storeOf: The store of the inserted objects of each layout, by the layout's identity.
    ///   - coordinator: The coordinator of the stores.
    ///   - savedStores: The stores that already took their part of this save (in an earlier
    ///     round, before another store reported conflicts): left out; each store this call
    ///     saves to is added.
    package func writeChanges(newObjects: [ManagedObject], storeOf: [ObjectIdentifier: any PersistentStore],
                              coordinator: PersistentStoreCoordinator,
                              savedStores: inout Set<ObjectIdentifier>) throws {
        var changes: [ObjectIdentifier: StoreSaveChanges] = [:]
        var stores: [ObjectIdentifier: any PersistentStore] = [:]
        // Whether each store records persistent history (one dynamic cast per store, not per object).
        // The last store's answer kept at hand (updated objects mostly come from one store).
        var tracking: [ObjectIdentifier: Bool] = [:]
        var lastTracking: (store: ObjectIdentifier, answer: Bool)?
        func recordsHistory(_ store: any PersistentStore) -> Bool {
            let key = ObjectIdentifier(store)
            if let lastTracking, lastTracking.store == key { return lastTracking.answer }
            let answer: Bool
            if let known = tracking[key] {
                answer = known
            } else {
                answer = (store as? any PersistentHistoryStore)?.tracksPersistentHistory ?? false
                tracking[key] = answer
            }
            lastTracking = (key, answer)
            return answer
        }
        func add(_ store: any PersistentStore, _ edit: (inout StoreSaveChanges) -> Void) {
            let key = ObjectIdentifier(store)
            stores[key] = store
            edit(&changes[key, default: StoreSaveChanges()])   // in place: no copy per object
        }
        // Runs of objects of one layout (insert order) go to their store's rows together.
        var start = newObjects.startIndex
        while start < newObjects.endIndex {
            let layout = newObjects[start].layout
            var end = start + 1
            while end < newObjects.endIndex && newObjects[end].layout === layout { end += 1 }
            let store = storeOf[ObjectIdentifier(layout)]!
            var rows: [StoreRow] = []
            rows.reserveCapacity(end - start)
            if let plan = Self.packedRowPlan(of: newObjects[start], for: store, inserting: true) {
                for object in newObjects[start..<end] where !appendExactValuesRow(of: object, plan: plan, to: &rows) {
                    // Bound, then appended: moved into the list (`??` would copy the row, a
                    // retain per value it holds, and destroy the original).
                    if let packed = packedRow(of: object, plan: plan) { rows.append(packed) } else { rows.append(row(of: object)) }
                }
            } else {
                for object in newObjects[start..<end] { rows.append(row(of: object)) }
            }
            // The first run of a store becomes its list (no copy of the rows).
            add(store) { if $0.inserted.isEmpty { $0.inserted = rows } else { $0.inserted += rows } }
            start = end
        }
        // How each layout's rows are packed for each store (looked up once per pair; the last
        // pair is kept at hand, as updated objects mostly come from one entity and store).
        var plans: [PackedRowPlanKey: PackedRowPlan?] = [:]
        var lastPlan: (key: PackedRowPlanKey, plan: PackedRowPlan?)?
        // The store of the last store identifier met (a locked search each otherwise):
        // updated and deleted objects mostly come from one store.
        // An ID that shares its entity and store with the last one looked up (one store
        // made both, from one template) is known without its store identifier copied out.
        var lastStore: (id: ManagedObjectID, identifier: String, store: any PersistentStore)?
        func store(of id: ManagedObjectID) -> (any PersistentStore)? {
            if let lastStore, id.sharesScope(with: lastStore.id) { return lastStore.store }
            guard let identifier = id.storeIdentifier else { return nil }
            if let lastStore, lastStore.identifier == identifier { return lastStore.store }
            guard let found = coordinator.store(withIdentifier: identifier) else { return nil }
            lastStore = (id, identifier, found)
            return found
        }
        // The updated objects whose rows each store receives, in row order (their versions
        // are set from the store's answer without a look-up per object).
        var updatedObjects: [ObjectIdentifier: [ManagedObject]] = [:]
        // Updated objects mostly come from one store: each run of one store's rows is gathered
        // here and added to its save at once (not a look-up of the store's save and of its
        // object list per object).
        var updatedRun = UpdatedRowRun()
        func flushUpdatedRun() {
            guard let store = updatedRun.store, !updatedRun.objects.isEmpty else { return }
            let key = ObjectIdentifier(store)
            add(store) { updatedRun.moveRows(into: &$0) }
            updatedRun.moveObjects(into: &updatedObjects[key, default: []])
        }
        for object in updated {
            guard let store = store(of: object.objectID) else {
                if !object.hasChangedSavedValues { continue }
                throw ManagedObjectContextError.noStore(object.entity.name)
            }
            // The changed names only for a store that records them; any other only needs to
            // know that something changed.
            let names: Set<String>?
            if recordsHistory(store) {
                let changedValues = object.changedValues()
                if changedValues.isEmpty { continue }
                names = Set(changedValues.keys)
            } else {
                if !object.hasChangedSavedValues(in: self) { continue }
                names = nil
            }
            let planKey = PackedRowPlanKey(layout: ObjectIdentifier(object.layout), store: ObjectIdentifier(store))
            let plan: PackedRowPlan?
            if let lastPlan, lastPlan.key == planKey {
                plan = lastPlan.plan
            } else if let known = plans[planKey] {
                plan = known
                lastPlan = (planKey, known)
            } else {
                plan = Self.packedRowPlan(of: object, for: store, inserting: false)
                plans[planKey] = plan
                lastPlan = (planKey, plan)
            }
            // Only the changed columns are written where the store can (PackedRows).
            let (row, slots) = updatedRow(of: object, plan: plan)
            if updatedRun.store !== store {
                flushUpdatedRun()
                updatedRun.start(store, expecting: updated.count)
            }
            updatedRun.append(row, slots: slots, names: names, object: object)
        }
        flushUpdatedRun()
        // Deleted objects mostly come from one store: each run of one store's objects is
        // gathered and added to its save at once (not a store search and two look-ups per
        // object).
        var run: (store: any PersistentStore, entries: [(objectID: ManagedObjectID, version: Int64)])?
        func flushRun() {
            // Taken out of the run first, so that the save's list takes it without a copy.
            guard let store = run?.store, var entries = run?.entries, !entries.isEmpty else { return }
            run?.entries = []
            add(store) { $0.deleted.append(taking: &entries) }
        }
        for object in deleted {
            guard let store = store(of: object.objectID) else { continue }
            if run.map({ $0.store !== store }) ?? true {
                flushRun()
                run = (store, [])
            }
            // A fault made from an ID alone (no version known) is checked against the version
            // its row has now.
            let version = object.storeVersion == 0 && object.faultFlag
                ? try storeRow(for: object.objectID)?.version ?? 0 : object.storeVersion
            run!.entries.append((object.objectID, version))
        }
        flushRun()
        for object in conflictChecked where object.managedObjectContext === self && !object.objectID.isTemporaryID
            && !updated.contains(object) && !deleted.contains(object) {
            guard let store = object.objectID.storeIdentifier.flatMap(coordinator.store(withIdentifier:)) else { continue }
            let entry = (object.objectID, object.storeVersion)
            add(store) { $0.locked.append(entry) }
        }
        // A save that spans stores is checked in every store before any of them writes, so
        // that a conflict in one store does not leave another with its part written.
        if changes.count - changes.keys.filter(savedStores.contains).count > 1 {
            try Self.checkVersions(of: changes, in: stores, skipping: savedStores)
        }
        for key in Array(changes.keys) {
            // Taken out of `changes`: the row cache then holds the save's rows without a copy.
            guard var storeChanges = changes.removeValue(forKey: key), !storeChanges.isEmpty,
                  !savedStores.contains(key) else { continue }
            storeChanges.transactionAuthor = transactionAuthor
            storeChanges.contextName = name
            let store = stores[key]!
            if let uniform = store as? any UniformInsertVersionStore {
                // The new rows' version is one number: set on the store's new objects
                // directly, not looked up per object; likewise the updated rows' versions
                // when each is one more than the version saved.
                // The store may keep the new rows' array, which the row cache then shares.
                let saved = try uniform.saveReportingVersions(sharingInserted: &storeChanges)
                Self.setVersion(saved.inserted, ofNewObjects: newObjects, in: store, storeOf: storeOf)
                if let updatedVersions = saved.updated {
                    for (id, version) in updatedVersions { registered[id]?.storeVersion = version }
                } else {
                    for object in updatedObjects[key] ?? [] { object.storeVersion += 1 }
                }
                coordinator.rowCache.store(saved: &storeChanges, insertedVersion: saved.inserted, versions: saved.updated ?? [:],
                                           updatedByOne: saved.updated == nil)
            } else {
                let versions = try store.save(storeChanges)
                for (id, version) in versions { registered[id]?.storeVersion = version }
                coordinator.rowCache.store(saved: &storeChanges, versions: versions)
            }
            // Each updated object's row now holds its values: its next save may write only the
            // changed columns.
            for object in updatedObjects[key] ?? [] { object.hasUnrecordedValues = false }
            savedStores.insert(key)
        }
    }

    /// Throws the optimistic-locking conflicts of a save that spans several stores, found by
    /// reading each updated, deleted or locked row's version in its store, before any store
    /// writes. (Each store checks again as it writes: this check only keeps one store's
    /// conflict from leaving another store's part of the save written.)
    ///
    /// - Complexity: One row look-up per updated, deleted or locked object.
    /// - Throws: ``StoreSaveError/conflicts(_:)`` with every conflict found; what a store's
    ///   look-up throws.
    private static func checkVersions(of changes: [ObjectIdentifier: StoreSaveChanges],
                                      in stores: [ObjectIdentifier: any PersistentStore],
                                      skipping savedStores: Set<ObjectIdentifier>) throws {
        var found: [StoreConflict] = []
        for (key, storeChanges) in changes where !savedStores.contains(key) {
            let store = stores[key]!
            // A missing row is a conflict for an updated or locked object whatever the version
            // expected (StoreSaveChanges.conflicts(currentVersion:)).
            func check(_ id: ManagedObjectID, _ expected: Int64, missingMatchesNone: Bool) throws {
                let row = try store.row(for: id)
                let current = row?.version ?? 0
                if current != expected || (row == nil && missingMatchesNone) {
                    found.append(StoreConflict(objectID: id, expectedVersion: expected, storeVersion: current))
                }
            }
            for row in storeChanges.updated { try check(row.objectID, row.version, missingMatchesNone: true) }
            for entry in storeChanges.deleted { try check(entry.objectID, entry.version, missingMatchesNone: false) }
            for entry in storeChanges.locked { try check(entry.objectID, entry.version, missingMatchesNone: true) }
        }
        if !found.isEmpty { throw StoreSaveError.conflicts(found) }
    }

    /// Sets `version` as the store version of the objects of `newObjects` saved to `store`
    /// (their store by the identity of their layout: one look-up per run of one layout).
    private static func setVersion(_ version: Int64, ofNewObjects newObjects: [ManagedObject], in store: any PersistentStore,
                                   storeOf: [ObjectIdentifier: any PersistentStore]) {
        // Layouts compared by identity; the objects walked as `forEach(of:)` walks them (no
        // reference counting per object).
        var lastLayout: ObjectIdentifier?
        var inStore = false
        forEach(of: newObjects) { object in
            let layout = ObjectIdentifier(object.layout)
            if layout != lastLayout {
                lastLayout = layout
                inStore = storeOf[layout] === store
            }
            if inStore { object.storeVersion = version }
        }
    }

    /// The row of an object's saved properties, with its current version; to-many
    /// relationships still faults are left out (unchanged).
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
            } else if !object.isRelationshipFaulted(slot: slot), case .relationship(let relationship) = layout.properties[slot] {
                // A relationship fault is unchanged: left out, the store keeps its members.
                row.relationships[relationship.name] = Self.members(object.slotValue(slot)).map(\.objectID)
            }
        }
        return row
    }
}
