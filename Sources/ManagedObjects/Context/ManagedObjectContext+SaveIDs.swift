// Saving: the permanent IDs of a save's new objects, given before the stores write and taken
// back when the save fails.
import Foundation

extension ManagedObjectContext {
    func assignPermanentIDs(to objects: [ManagedObject], storeOf: [ObjectIdentifier: any PersistentStore]) throws {
        // The usual save: new objects of one store, all waiting for their registry entries and
        // none with a permanent ID yet. They take their IDs in place, in one pass.
        if let store = Self.onlyStore(in: storeOf) {
            prepareUnindexedInsertsForSave()
            if allAwaitRegistryEntries(count: objects.count), objects.allSatisfy({ $0.knownObjectID?.isTemporaryID ?? true }) {
                return try assignPermanentIDsInPlace([(store, objects)])
            }
        }
        // A context saves to few stores: each group is found by a short search, in the order
        // the stores are first met.
        // Objects come in runs of one layout: the store and its group are found once per run.
        var groups: [(store: any PersistentStore, objects: [ManagedObject])] = []
        var lastLayout: EntityLayout?
        var group = 0
        // An object without an ID yet counts as temporary (it has not been saved).
        for object in objects where object.knownObjectID?.isTemporaryID ?? true {
            if object.layout !== lastLayout {
                lastLayout = object.layout
                let store = storeOf[ObjectIdentifier(object.layout)]!
                if let index = groups.firstIndex(where: { $0.store === store }) {
                    group = index
                } else {
                    group = groups.count
                    groups.append((store, []))
                }
            }
            groups[group].objects.append(object)
        }
        // Most registered objects change their IDs (a save of many new objects): the objects
        // are registered anew under their IDs, at once, instead of one removal (which moves
        // the entries after it) and one insertion per object.
        let count = groups.reduce(0) { $0 + $1.objects.count }
        // Objects waiting for their registry entry take their IDs in place (no entry to move):
        // the usual save of objects inserted since the last one.
        prepareUnindexedInsertsForSave()
        if allAwaitRegistryEntries(count: count) { return try assignPermanentIDsInPlace(groups) }
        let rebuilds = count * 2 >= registered.count
        // Every store answers before any object changes its ID (an error leaves them all as
        // they were). A rebuild finds an ID that names an object already as it goes.
        var answers: [[ManagedObjectID]] = []
        answers.reserveCapacity(groups.count)
        for group in groups {
            answers.append(try checkedNewObjectIDs(from: group.store, for: Self.entityNames(of: group.objects),
                                                   checkingRegistry: !rebuilds))
        }
        guard rebuilds else {
            // Each object leaves its temporary ID before it takes its permanent one: the
            // registered objects never grow in number (no room to make).
            for (group, ids) in zip(groups, answers) {
                for (object, id) in zip(group.objects, ids) { reassign(object, to: id) }
            }
            return
        }
        // The registry as it will be, made before any object changes its ID: the objects that
        // keep theirs (every registered object but the inserted ones with temporary IDs, which
        // are the groups' objects), then each new object under its new ID, which must name no
        // object yet (checkedNewObjectIDs' registry check, one probe instead of two).
        var rebuilt = [ManagedObjectID: ManagedObject](minimumCapacity: registered.count)
        for object in registered.values where !(inserted.contains(object) && object.objectID.isTemporaryID) {
            rebuilt[object.objectID] = object
        }
        for (group, ids) in zip(groups, answers) {
            for (object, id) in zip(group.objects, ids) where rebuilt.updateValue(object, forKey: id) != nil {
                throw ManagedObjectContextError.invalidStoreAnswer(
                    store: Self.storeName(group.store), reason: "newObjectIDs(for:) gave \(id), which already names an object")
            }
        }
        for (group, ids) in zip(groups, answers) {
            for index in group.objects.indices { group.objects[index].objectID = ids[index] }
        }
        registered = rebuilt
    }

    /// ``assignPermanentIDs(to:storeOf:)`` of objects that all wait for their registry entry
    /// (``unindexedInserts``): each takes its store's ID, checked against the registry's
    /// entries (which hold every permanent ID registered: no waiting object has one), and its
    /// entry will be made under it. Every store answers before any object changes its ID.
    private func assignPermanentIDsInPlace(_ groups: [(store: any PersistentStore, objects: [ManagedObject])]) throws {
        var answers: [[ManagedObjectID]] = []
        answers.reserveCapacity(groups.count)
        for group in groups {
            // New objects of one entity (the usual save) are asked for without their names.
            if let name = Self.soleEntityName(of: group.objects) {
                answers.append(try checkedNewObjectIDs(from: group.store, count: group.objects.count, of: name))
            } else {
                answers.append(try checkedNewObjectIDs(from: group.store, for: Self.entityNames(of: group.objects)))
            }
        }
        // Each answer is taken out of the list (held once) and its IDs moved into the objects
        // from the last: no retain per ID given, no release per ID when the answer is
        // destroyed; the objects are read through their array's storage.
        for (index, group) in groups.enumerated() {
            var ids: [ManagedObjectID] = []
            swap(&ids, &answers[index])
            group.objects.withUnsafeBufferPointer { objects in
                precondition(ids.count == objects.count, "a checked answer gives one ID per object")
                while let id = ids.popLast() { objects[ids.count].knownObjectID = id }
            }
        }
        unindexedInsertsHavePermanentIDs = true
    }

    /// The one store of `storeOf`'s values, or `nil` when there are several (or none).
    private static func onlyStore(in storeOf: [ObjectIdentifier: any PersistentStore]) -> (any PersistentStore)? {
        guard let first = storeOf.first?.value else { return nil }
        for store in storeOf.values where store !== first { return nil }
        return first
    }

    /// The entity name of `objects` when they all have one layout (compared by identity,
    /// through the array's storage); `nil` when they are of several, or none.
    static func soleEntityName(of objects: [ManagedObject]) -> String? {
        objects.withUnsafeBufferPointer { objects -> String? in
            guard let layout = objects.first?.layout else { return nil }
            for object in objects where object.layout !== layout { return nil }
            return objects[0].entity.name
        }
    }

    /// The entity names of `objects`, in order: what a store's `newObjectIDs(for:)` takes.
    /// Objects come in runs of one layout: each run's name is read once.
    static func entityNames(of objects: [ManagedObject]) -> [String] {
        // Written in place into storage of the right size (no append per name).
        [String](unsafeUninitializedCapacity: objects.count) { names, initialized in
            var lastLayout: ObjectIdentifier?
            var name = ""
            objects.withUnsafeBufferPointer { objects in
                for index in objects.indices {
                    let layout = ObjectIdentifier(objects[index].layout)
                    if layout != lastLayout {
                        lastLayout = layout
                        name = objects[index].entity.name
                    }
                    (names.baseAddress! + index).initialize(to: name)
                    initialized = index + 1
                }
            }
        }
    }

    /// Gives a new object back the ID it had before a save that failed: `id`, or none when it
    /// had none (a temporary one is made when asked for). An object waiting for its registry
    /// entry just takes it; any other is registered anew.
    ///
    /// While ``unindexedInsertsHavePermanentIDs`` (nothing made the waiting entries since
    /// the IDs were given), every object that took an ID in this save waits for its entry.
    func restoreID(of object: ManagedObject, to id: ManagedObjectID?) {
        if let id, object.knownObjectID == id { return }
        if unindexedInsertsHavePermanentIDs {
            object.knownObjectID = id
        } else {
            reassign(object, to: id ?? ManagedObjectID.temporary(entityName: object.entity.name))
        }
    }

    /// Re-registers an object under a new ID.
    package func reassign(_ object: ManagedObject, to id: ManagedObjectID) {
        registered[object.objectID] = nil
        object.objectID = id
        registered[id] = object
    }
}
