// Permanent IDs along a chain of contexts: a child knows objects of its parents by temporary IDs
// (its own saved inserts, a sibling's merged inserts, the parent's unsaved inserts it fetched)
// and re-registers each under its permanent ID once the chain has one, so that a context never
// holds two objects for one row.
import Foundation

extension ManagedObjectContext {
    /// Gives objects inserted in this context their permanent IDs now, from their stores
    /// (Apple: `obtainPermanentIDs(for:)`).
    ///
    /// Objects that already have permanent IDs keep them. In a child, the parents that know an
    /// object by its temporary ID re-register it under the permanent one, so the whole chain
    /// agrees; a later save keeps the IDs. The child's objects that it knows from its parents
    /// by temporary IDs take the permanent IDs the chain has given them since.
    ///
    /// - Parameter objects: Objects registered in this context.
    /// - Throws: ``ManagedObjectContextError/noStore(_:)`` when no store holds an object's
    ///   entity; the store's error.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        enterConfinement("obtainPermanentIDs(for:)")
        defer { exitConfinement() }
        if parent != nil { adoptPermanentIDsFromParent() }
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
        coordinator.permanentIDGeneration.add(1, ordering: .releasing)
    }

    /// Re-registers this context's objects known by the temporary IDs under their permanent
    /// IDs, and remembers the pairs for children.
    private func adoptPermanentIDs(_ pairs: some Sequence<(ManagedObjectID, ManagedObjectID)>) {
        for (temporary, permanent) in pairs {
            if let object = registered[temporary] { reassign(object, to: permanent) }
            parentTemporaryIDs.remove(temporary)
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
        var recorded = false
        // An object that had no ID before the save is known to no child by a temporary one.
        for (object, earlier) in zip(objects, temporaryIDs) {
            guard let temporary = earlier, temporary != object.objectID else { continue }
            permanentIDsOfSavedObjects[temporary] = object.objectID
            recorded = true
        }
        if recorded { coordinator?.permanentIDGeneration.add(1, ordering: .releasing) }
    }

    /// Notes that this child registered an object of its parent chain under a temporary ID
    /// (a fetched row, a fault, a merged insert of a sibling), so that the object takes its
    /// permanent ID when the chain saves it.
    package func noteParentTemporaryID(_ id: ManagedObjectID) {
        if parent != nil && id.isTemporaryID {
            parentTemporaryIDs.insert(id)
            parentTemporaryIDsChecked.notedSince = true
        }
    }

    /// ``adoptPermanentIDsFromParent()`` when it may change something: the coordinator's
    /// contexts gave objects permanent IDs, or this child noted new temporary IDs, since it
    /// last re-keyed. Before a permanent ID that is not registered makes a fault, so that an
    /// object known here by its temporary ID is found instead (one object per row).
    ///
    /// - Complexity: O(1) when nothing changed.
    package func adoptPermanentIDsFromParentIfChanged() {
        guard parent != nil, !parentTemporaryIDs.isEmpty else { return }
        let generation = coordinator?.permanentIDGeneration.load(ordering: .acquiring) ?? 0
        guard generation != parentTemporaryIDsChecked.generation || parentTemporaryIDsChecked.notedSince else { return }
        adoptPermanentIDsFromParent()
    }

    /// The objects this child knows from its parent chain by temporary IDs (its saved
    /// inserts, a sibling's merged inserts, fetched unsaved inserts of a parent) take the
    /// permanent IDs the chain has given them since: when a fetch sees the objects again, when
    /// a save is merged, and in ``obtainPermanentIDs(for:)``.
    ///
    /// - Complexity: One call to the parent (and up the chain) when the child knows any object
    ///   by such an ID; O(*n*) in their number.
    package func adoptPermanentIDsFromParent() {
        guard let parent, !parentTemporaryIDs.isEmpty else { return }
        // Read before the parent is asked: a permanent ID given after it moves the generation on.
        let generation = coordinator?.permanentIDGeneration.load(ordering: .acquiring) ?? 0
        // An object that left this context (reset, merged delete) needs no new ID.
        parentTemporaryIDs = parentTemporaryIDs.filter { registered[$0] != nil }
        if !parentTemporaryIDs.isEmpty {
            let temporaryIDs = Array(parentTemporaryIDs)
            let found = parent.performAndWait { parent.currentIDs(ofTemporaryIDs: temporaryIDs) }
            adoptPermanentIDs(found.lazy.filter { !$0.value.isTemporaryID }.map { ($0.key, $0.value) })
        }
        parentTemporaryIDsChecked = (generation, false)
    }

    /// The IDs that name the objects of temporary IDs in this context's chain now: the
    /// permanent ID of an object saved since, the temporary ID itself for an object still
    /// unsaved; IDs the chain does not know are left out. This context (and each parent asked)
    /// first adopts the permanent IDs of the objects it knows by temporary IDs.
    package func currentIDs(ofTemporaryIDs ids: [ManagedObjectID]) -> [ManagedObjectID: ManagedObjectID] {
        enterConfinement("a child context's look-up of temporary IDs")
        defer { exitConfinement() }
        adoptPermanentIDsFromParent()
        var found: [ManagedObjectID: ManagedObjectID] = [:]
        var missing: [ManagedObjectID] = []
        for id in ids {
            if let permanent = permanentIDsOfSavedObjects[id] {
                found[id] = permanent
            } else if registered[id] != nil {
                found[id] = id
            } else {
                missing.append(id)
            }
        }
        if !missing.isEmpty, let parent {
            let above = parent.performAndWait { parent.currentIDs(ofTemporaryIDs: missing) }
            found.merge(above) { mine, _ in mine }
        }
        return found
    }

    /// A save result of a sibling or parent, for this child: each temporary ID this context
    /// does not have registered is replaced by the ID that names its object now
    /// (``currentIDs(ofTemporaryIDs:)``; a sibling's objects that the parent saved since have
    /// permanent IDs), or left out when the chain does not know it.
    package func resolvingTemporaryIDs(of result: SaveResult) -> SaveResult {
        guard let parent else { return result }
        var unknown: [ManagedObjectID] = []
        for ids in [result.insertedObjectIDs, result.updatedObjectIDs, result.deletedObjectIDs] {
            for id in ids where id.isTemporaryID && registered[id] == nil { unknown.append(id) }
        }
        guard !unknown.isEmpty else { return result }
        let current = parent.performAndWait { parent.currentIDs(ofTemporaryIDs: unknown) }
        func resolved(_ ids: Set<ManagedObjectID>) -> Set<ManagedObjectID> {
            Set(ids.compactMap { id in id.isTemporaryID && registered[id] == nil ? current[id] : id })
        }
        return SaveResult(insertedObjectIDs: resolved(result.insertedObjectIDs),
                          updatedObjectIDs: resolved(result.updatedObjectIDs),
                          deletedObjectIDs: resolved(result.deletedObjectIDs))
    }
}
