// Child contexts: a context whose parent is another context fetches the parent's current state
// and saves into the parent, not into the store.
import Foundation
import KeyValueCoding

extension ManagedObjectContext {
    /// Creates a child context of another context (Apple: `init(concurrencyType:)` then
    /// `parent`).
    ///
    /// A child sees its parent's unsaved state: its fetches include the objects the parent
    /// inserted and leave out the ones it deleted, and its objects load the parent's current
    /// values. ``save()`` pushes the child's inserts, changes and deletes into the parent only;
    /// they reach the store when the parent saves. Objects inserted in a child keep their
    /// temporary IDs until the save reaches the store and the child fetches them again (or
    /// until ``obtainPermanentIDs(for:)``). A child dropped without saving leaves no trace.
    ///
    /// ```swift
    /// let editor = ManagedObjectContext(concurrencyType: .mainQueue, parent: container.viewContext)
    /// // edit in `editor`; then either drop it, or:
    /// try editor.save()                   // into the view context
    /// try container.viewContext.save()    // into the store
    /// ```
    ///
    /// - Parameters:
    ///   - concurrencyType: The child's queue; it may differ from the parent's.
    ///   - parent: The parent; the child keeps it alive.
    public convenience init(concurrencyType: ConcurrencyType, parent: ManagedObjectContext) {
        self.init(model: parent.model, coordinator: parent.coordinator, parent: parent, concurrencyType: concurrencyType)
        parent.childCount.add(1, ordering: .relaxed)
    }

    // MARK: Automatic merges

    /// Registers or unregisters the context for automatic merges with its parent (or its
    /// coordinator's other contexts).
    package func updateAutoMergeRegistration() {
        let registry = parent?.autoMergingChildren ?? coordinator?.autoMergingContexts
        if automaticallyMergesChangesFromParent { registry?.add(self) } else { registry?.remove(self) }
    }

    /// Tells the contexts that merge this context's saves automatically: its children (with
    /// the flag), and its siblings (children of the same parent, or contexts of the same
    /// coordinator) with the flag.
    package func notifyAutoMergingContexts(of result: SaveResult) {
        let siblings = parent?.autoMergingChildren ?? coordinator?.autoMergingContexts
        var targets = autoMergingChildren.references(excluding: nil)
        targets += siblings?.references(excluding: ObjectIdentifier(self)) ?? []
        for target in targets {
            target.context?.perform { context in context.mergeChanges(from: result) }
        }
    }

    // MARK: Where rows come from

    /// The rows a fetch starts from: the parent's current state for a child, the stores' rows
    /// otherwise.
    package func sourceRows(for request: StoreFetchRequest) throws -> [StoreRow] {
        var request = request
        request.resultType = .rows   // a child needs the values: they are what it fetches from
        request.includesPropertyValues = true
        if let parent {
            return try parent.performAndWait { () throws -> [StoreRow] in try parent.visibleRows(for: request) }
        }
        var rows: [StoreRow] = []
        for store in storesHolding(request.entityNames) { rows += try store.fetch(request).rows }
        return rows
    }

    /// The row an object loads from: its parent's current values for a child (`nil` when the
    /// parent deleted it or has no such object), the store's row otherwise.
    package func sourceRow(for id: ManagedObjectID) throws -> StoreRow? {
        if let parent {
            return try parent.performAndWait { () throws -> StoreRow? in try parent.visibleRow(for: id) }
        }
        return try storeRow(for: id)   // the row cache's, when younger than the staleness interval
    }

    /// The rows of this context's current state for a child's fetch: registered objects with
    /// their current (unsaved) values, inserted objects, deleted objects left out.
    package func visibleRows(for request: StoreFetchRequest) throws -> [StoreRow] {
        enterConfinement("a child context's fetch")
        defer { exitConfinement() }
        var rows: [StoreRow] = []
        var seen = Set<ManagedObjectID>()
        for source in try sourceRows(for: request) {
            if let object = registered[source.objectID] {
                if deleted.contains(object) { continue }
                if !object.faultFlag {
                    rows.append(row(of: object))
                    seen.insert(source.objectID)
                    continue
                }
            }
            rows.append(source)
            seen.insert(source.objectID)
        }
        let wanted = Set(request.entityNames)
        for object in inserted.union(updated).sorted(by: { $0.registrationSequence < $1.registrationSequence })
            where wanted.contains(object.entity.name) && !seen.contains(object.objectID) {
            rows.append(row(of: object))
        }
        return rows
    }

    /// The row of one object of this context's current state for a child.
    package func visibleRow(for id: ManagedObjectID) throws -> StoreRow? {
        enterConfinement("a child context's fault")
        defer { exitConfinement() }
        guard let object = registered[id] ?? permanentIDsOfSavedObjects[id].flatMap({ registered[$0] }) else {
            return try sourceRow(for: permanentIDsOfSavedObjects[id] ?? id)
        }
        if deleted.contains(object) { return nil }
        if object.faultFlag { return try sourceRow(for: object.objectID) }
        return row(of: object)
    }

    // MARK: Saving into the parent

    /// One object's changes on their way from a child into its parent: values by slot, related
    /// objects by ID.
    package struct PushedObject {
        var objectID: ManagedObjectID
        var attributes: [(slot: Int, value: Any?)] = []
        var relationships: [(slot: Int, ids: [ManagedObjectID])] = []
        /// Unordered to-many relationships of an updated object: the objects added and removed
        /// since the child's last save, so that siblings adding to the same relationship do not
        /// undo each other's additions.
        var toManyChanges: [(slot: Int, added: [ManagedObjectID], removed: [ManagedObjectID])] = []
    }

    /// The save of a child: validates, then pushes the inserts, changes and deletes into the
    /// parent on the parent's queue, and commits them here.
    package func saveIntoParent(_ parent: ManagedObjectContext) throws {
        processPendingChanges()
        guard hasChanges else { return }
        notificationCenter.post(name: Self.willSaveNotification, object: self)
        callWillSave()
        processPendingChanges()
        try validateForSave()
        let order = { (a: ManagedObject, b: ManagedObject) in a.registrationSequence < b.registrationSequence }
        let insertedObjects = inserted.sorted(by: order)
        let pushedInserts = insertedObjects.map { pushed($0, slots: nil) }
        let pushedUpdates = updated.sorted(by: order).map { pushed($0, slots: $0.committedRecord?.slotSet ?? []) }
        let deletedIDs = deleted.sorted(by: order).map(\.objectID)
        try parent.performAndWait { () throws -> Void in
            try parent.applyChildChanges(inserted: pushedInserts, updated: pushedUpdates, deleted: deletedIDs)
        }
        for object in insertedObjects where object.objectID.isTemporaryID { pushedTemporaryIDs.insert(object.objectID) }
        let saved = Changes(inserted: inserted.objects, updated: updated.objects, deleted: deleted.objects)
        let result = SaveResult(insertedObjectIDs: Set(inserted.map(\.objectID)),
                                updatedObjectIDs: Set(updated.map(\.objectID)),
                                deletedObjectIDs: Set(deleted.map(\.objectID)))
        commitChanges()
        for object in saved.inserted.union(saved.updated).union(saved.deleted) { object.didSave() }
        postDidSave(result, saved)
    }

    /// An object's saved properties (all of them, or the changed `slots`) as they go to the
    /// parent.
    private func pushed(_ object: ManagedObject, slots: Set<Int>?) -> PushedObject {
        var pushed = PushedObject(objectID: object.objectID)
        for (slot, property) in object.layout.properties.enumerated() where !property.isTransient {
            if let slots, !slots.contains(slot) { continue }
            switch property {
            case .attribute: pushed.attributes.append((slot, object.slotValue(slot)))
            case .relationship(let relationship):
                let current = Self.members(object.slotValue(slot))
                if slots != nil, relationship.cardinality == .toMany {
                    let before = Set(Self.members(committedValue(of: object, slot: slot)).map(ObjectIdentifier.init))
                    let after = Set(current.map(ObjectIdentifier.init))
                    let added = current.filter { !before.contains(ObjectIdentifier($0)) }.map(\.objectID)
                    let removed = Self.members(committedValue(of: object, slot: slot))
                        .filter { !after.contains(ObjectIdentifier($0)) }.map(\.objectID)
                    pushed.toManyChanges.append((slot, added, removed))
                } else {
                    pushed.relationships.append((slot, current.map(\.objectID)))
                }
            case .fetchedProperty: break
            }
        }
        return pushed
    }

    /// Applies a child's save: new objects are inserted, changed values set (with the usual
    /// change tracking, so the objects become inserted, updated or deleted here), deleted
    /// objects deleted; then the user event ends.
    package func applyChildChanges(inserted pushedInserts: [PushedObject], updated pushedUpdates: [PushedObject],
                                   deleted deletedIDs: [ManagedObjectID]) throws {
        enterConfinement("saving a child context")
        defer { exitConfinement() }
        try checkChildChangesResolve(inserted: pushedInserts, updated: pushedUpdates)
        // New objects, even those with permanent IDs already (obtainPermanentIDs): never a fault
        // for them, as the store does not have them yet.
        for pushed in pushedInserts where registered[pushed.objectID] == nil {
            let object = try makeObject(entityName: pushed.objectID.entityName, id: pushed.objectID)
            object.hasAwokenFromInsert = true   // it woke in the child
            try insert(object)
        }
        for pushed in pushedInserts + pushedUpdates {
            guard let object = objectForChild(pushed.objectID) else { continue }
            if object.faultFlag { object.fireFault() }
            for (slot, value) in pushed.attributes { try set(value, slot: slot, of: object) }
            for (slot, ids) in pushed.relationships {
                guard case .relationship(let relationship) = object.layout.properties[slot] else { continue }
                let targets = ids.compactMap(objectForChild)
                switch relationship.cardinality {
                case .toOne: try set(targets.first, slot: slot, of: object)
                case .toMany: try set(Set(targets), slot: slot, of: object)
                case .orderedToMany: try set(targets, slot: slot, of: object)
                }
            }
            for (slot, added, removed) in pushed.toManyChanges {
                let removedObjects = Set(removed.compactMap(objectForChild).map(ObjectIdentifier.init))
                var members = Self.members(object.slotValue(slot)).filter { !removedObjects.contains(ObjectIdentifier($0)) }
                members += added.compactMap(objectForChild)
                try set(Set(members), slot: slot, of: object)
            }
        }
        for id in deletedIDs {
            guard let object = objectForChild(id) else { continue }
            if object.faultFlag { object.fireFault() }
            delete(object)
        }
        processPendingChanges()
    }

    /// Throws ``ManagedObjectContextError/objectsGoneFromParent(_:)`` naming the objects of a
    /// child's save that this context no longer has, before anything changes: objects the child
    /// changed, and objects its relationships name, that are not inserted by the save itself
    /// and that this context deleted (saved or not), that its source (its parent, or the
    /// store) no longer has, or that it knows by temporary IDs it does not resolve (inserted
    /// here, then dropped by `reset()` or `rollback()`). Applied, such a change was lost or
    /// left a relationship to a row that does not exist. (Deleting such an object loses
    /// nothing: it exists nowhere.)
    ///
    /// - Complexity: One row look-up (the row cache's, or the source's) per object named that
    ///   this context has not loaded.
    private func checkChildChangesResolve(inserted pushedInserts: [PushedObject], updated pushedUpdates: [PushedObject]) throws {
        let pushedIDs = Set(pushedInserts.map(\.objectID))
        var gone: [ManagedObjectID] = []
        var seen = Set<ManagedObjectID>()
        func check(_ id: ManagedObjectID) throws {
            guard !pushedIDs.contains(id), seen.insert(id).inserted else { return }
            if id.isTemporaryID {
                guard registered[id] == nil, permanentIDsOfSavedObjects[id] == nil, objectForChild(id) == nil else { return }
                gone.append(id)
            } else if let object = registered[id] {
                if deleted.contains(object) {
                    gone.append(id)
                } else if object.faultFlag, try sourceRow(for: id) == nil {
                    gone.append(id)
                }
            } else if try sourceRow(for: id) == nil {
                gone.append(id)
            }
        }
        for pushed in pushedUpdates { try check(pushed.objectID) }
        for pushed in pushedInserts + pushedUpdates {
            for (_, ids) in pushed.relationships { try ids.forEach(check) }
            for (_, added, _) in pushed.toManyChanges { try added.forEach(check) }
        }
        if !gone.isEmpty { throw ManagedObjectContextError.objectsGoneFromParent(gone) }
    }

    private func set(_ value: Any?, slot: Int, of object: ManagedObject) throws {
        guard !ManagedObject.sameValue(object.slotValue(slot), value) else { return }
        try object.setValue(value, forKey: object.layout.properties[slot].name)
    }

    /// This context's object for an ID a child knows: registered, saved since under a
    /// permanent ID, or a fault.
    private func objectForChild(_ id: ManagedObjectID) -> ManagedObject? {
        if let object = registered[id] { return object }
        if let permanent = permanentIDsOfSavedObjects[id] { return registered[permanent] ?? (try? object(with: permanent)) }
        return try? object(with: id)
    }

    // MARK: Permanent IDs

    /// Gives objects inserted in this context their permanent IDs now, from their stores
    /// (Apple: `obtainPermanentIDs(for:)`).
    ///
    /// Objects that already have permanent IDs keep them. In a child, the parents that know an
    /// object by its temporary ID re-register it under the permanent one, so the whole chain
    /// agrees; a later save keeps the IDs.
    ///
    /// - Parameter objects: Objects registered in this context.
    /// - Throws: ``ManagedObjectContextError/noStore(_:)`` when no store holds an object's
    ///   entity; the store's error.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        enterConfinement("obtainPermanentIDs(for:)")
        defer { exitConfinement() }
        if parent != nil { adoptPermanentIDsOfPushedObjects() }
        let pending = objects.filter { $0.managedObjectContext === self && $0.objectID.isTemporaryID }
        guard !pending.isEmpty else { return }
        guard let coordinator else { throw ManagedObjectContextError.noStore(pending[0].entity.name) }
        var pairs: [(ManagedObjectID, ManagedObjectID)] = []
        var groups: [ObjectIdentifier: (store: any PersistentStore, objects: [ManagedObject])] = [:]
        for object in pending {
            guard let store = coordinator.store(forEntityNamed: object.entity.name) else {
                throw ManagedObjectContextError.noStore(object.entity.name)
            }
            groups[ObjectIdentifier(store), default: (store, [])].objects.append(object)
        }
        for group in groups.values {
            let ids = try checkedNewObjectIDs(from: group.store, for: group.objects.map(\.entity.name))
            pairs += zip(group.objects.map(\.objectID), ids).map { ($0, $1) }
        }
        adoptPermanentIDs(pairs)
        if let parent { try parent.performAndWait { () throws -> Void in parent.adoptPermanentIDsUpTheChain(pairs) } }
    }

    /// Re-registers this context's objects known by the temporary IDs under their permanent
    /// IDs, and remembers the pairs for children.
    private func adoptPermanentIDs(_ pairs: [(ManagedObjectID, ManagedObjectID)]) {
        for (temporary, permanent) in pairs {
            if let object = registered[temporary] { reassign(object, to: permanent) }
            pushedTemporaryIDs.remove(temporary)
            if childCount.load(ordering: .relaxed) > 0 { permanentIDsOfSavedObjects[temporary] = permanent }
        }
    }

    private func adoptPermanentIDsUpTheChain(_ pairs: [(ManagedObjectID, ManagedObjectID)]) {
        enterConfinement("obtainPermanentIDs(for:)")
        defer { exitConfinement() }
        adoptPermanentIDs(pairs)
        if let parent { parent.performAndWait { parent.adoptPermanentIDsUpTheChain(pairs) } }
    }

    /// After a save reached the store: remembers the permanent IDs of objects that had
    /// temporary ones, for children that still know them by those.
    package func rememberPermanentIDs(of objects: [ManagedObject], temporaryIDs: [ManagedObjectID?]) {
        guard childCount.load(ordering: .relaxed) > 0 else { return }
        // An object that had no ID before the save is known to no child by a temporary one.
        for (object, earlier) in zip(objects, temporaryIDs) {
            guard let temporary = earlier, temporary != object.objectID else { continue }
            permanentIDsOfSavedObjects[temporary] = object.objectID
        }
    }

    /// A child's objects that it pushed into its parent under temporary IDs take the permanent
    /// IDs the chain has given them since (when a fetch sees the objects again).
    package func adoptPermanentIDsOfPushedObjects() {
        guard let parent, !pushedTemporaryIDs.isEmpty else { return }
        let temporaryIDs = Array(pushedTemporaryIDs)
        let found = parent.performAndWait { parent.permanentIDs(forTemporaryIDs: temporaryIDs) }
        adoptPermanentIDs(found.map { ($0.key, $0.value) })
    }

    /// The permanent IDs this context or its parents know for temporary IDs (this context
    /// adopts those its parents found).
    private func permanentIDs(forTemporaryIDs temporaryIDs: [ManagedObjectID]) -> [ManagedObjectID: ManagedObjectID] {
        enterConfinement("a child context's fetch")
        defer { exitConfinement() }
        var found: [ManagedObjectID: ManagedObjectID] = [:]
        var missing: [ManagedObjectID] = []
        for id in temporaryIDs {
            if let permanent = permanentIDsOfSavedObjects[id] { found[id] = permanent } else { missing.append(id) }
        }
        if !missing.isEmpty, let parent {
            let above = parent.performAndWait { parent.permanentIDs(forTemporaryIDs: missing) }
            adoptPermanentIDs(above.map { ($0.key, $0.value) })
            found.merge(above) { first, _ in first }
        }
        return found
    }
}
