// Relationship faults: the members of a to-many relationship a row left out, loaded on first
// access from the parent context or the store.
import Foundation

extension ManagedObjectContext {
    /// Loads the members of a relationship fault into `object`'s slot (its fault bit already
    /// cleared), without notifications: the value the object had all along.
    package func fulfillRelationshipFault(_ object: ManagedObject, slot: Int) {
        checkConfinement("firing a relationship fault")
        guard case .relationship(let relationship) = object.layout.properties[slot] else { return }
        let ids = (try? sourceObjectIDs(forRelationship: relationship.name, of: object.objectID)) ?? []
        let related = relatedObjects(ids, destination: relationship.destinationEntityName)
        switch relationship.cardinality {
        case .toOne: object.storeLoadedSlotValue(related.first, slot)
        case .toMany: object.storeLoadedSlotValue(Set(related), slot)
        case .orderedToMany: object.storeLoadedSlotValue(related, slot)
        }
    }

    /// A relationship a row left out: a to-many becomes a relationship fault (`nil`: nothing
    /// more to fill); a to-one (or a to-many that cannot be a fault) is asked for now.
    package func missingRelationship(_ name: String, _ cardinality: RelationshipDescription.Cardinality, slot: Int,
                                     of object: ManagedObject) -> [ManagedObjectID]? {
        if cardinality != .toOne && object.markRelationshipFault(slot: slot) { return nil }
        return (try? sourceObjectIDs(forRelationship: name, of: object.objectID)) ?? []
    }

    /// The objects of `ids` that may be members of a relationship to `destination`, registered
    /// (faults when new). A store (a custom one, a damaged file) may name an object of another
    /// entity: such IDs are dropped, so that a typed read never meets an object of the wrong class.
    package func relatedObjects(_ ids: [ManagedObjectID], destination: String) -> [ManagedObject] {
        ids.compactMap { id -> ManagedObject? in
            guard id.entityName == destination || model.graph.isKind(id.entityName, of: destination) else { return nil }
            return try? self.object(with: id)
        }
    }

    /// The members of a relationship of the object `id` as this context's source has them: the
    /// parent's current members for a child, the store's otherwise (Apple:
    /// `newValue(forRelationship:forObjectWith:with:)`).
    package func sourceObjectIDs(forRelationship name: String, of id: ManagedObjectID) throws -> [ManagedObjectID] {
        if let parent {
            return try parent.performAndWait { () throws -> [ManagedObjectID] in
                try parent.visibleObjectIDs(forRelationship: name, of: id)
            }
        }
        guard let storeID = id.storeIdentifier, let store = coordinator?.store(withIdentifier: storeID) else { return [] }
        let members = try store.objectIDs(forRelationship: name, of: id)
        try checkRelationshipMembers(members, of: id, relationship: name, store: store)
        return members
    }

    /// The members of a relationship of one object of this context's current state, for a
    /// child: a registered loaded object's (its own relationship fault fires), the source's
    /// otherwise; none for an object deleted here.
    package func visibleObjectIDs(forRelationship name: String, of id: ManagedObjectID) throws -> [ManagedObjectID] {
        enterConfinement("a child context's relationship fault")
        defer { exitConfinement() }
        let sourceID = permanentIDsOfSavedObjects[id] ?? id
        if let object = registered[id] ?? registered[sourceID], !object.faultFlag {
            if deleted.contains(object) { return [] }
            guard let slot = object.layout.slotByName[name] else { return [] }
            return Self.members(object.slotValue(slot)).map(\.objectID)
        }
        return try sourceObjectIDs(forRelationship: name, of: sourceID)
    }

    /// Loads, for each object, the to-many relationship `name` where it is a relationship
    /// fault: one store call per store (``PersistentStore/objectIDs(forRelationship:ofObjects:)``)
    /// for a context on a coordinator, one parent call per object for a child.
    package func fulfillRelationshipFaults(_ name: String, of objects: [ManagedObject]) {
        var byStore: [String: [(ManagedObject, Int)]] = [:]
        for object in objects where !object.faultFlag {
            guard let slot = object.layout.slotByName[name], object.isRelationshipFaulted(slot: slot) else { continue }
            guard parent == nil, let storeID = object.objectID.storeIdentifier else {
                object.fireRelationshipFault(slot: slot)
                continue
            }
            byStore[storeID, default: []].append((object, slot))
        }
        for (storeID, faults) in byStore {
            guard let store = coordinator?.store(withIdentifier: storeID),
                  let members = try? store.objectIDs(forRelationship: name, ofObjects: faults.map(\.0.objectID)) else {
                for (object, slot) in faults { object.fireRelationshipFault(slot: slot) }
                continue
            }
            let checked = !(store is any TrustedRowStore)
            for (object, slot) in faults where object.isRelationshipFaulted(slot: slot) {
                guard case .relationship(let relationship) = object.layout.properties[slot] else { continue }
                // A user's store's wrong answer leaves the fault to fire alone (and throw where
                // it can).
                if checked, (try? checkRelationshipMembers(members[object.objectID] ?? [], of: object.objectID,
                                                           relationship: name, store: store)) == nil {
                    object.fireRelationshipFault(slot: slot)
                    continue
                }
                object.clearRelationshipFault(slot: slot)
                let related = relatedObjects(members[object.objectID] ?? [], destination: relationship.destinationEntityName)
                object.storeLoadedSlotValue(relationship.cardinality == .orderedToMany ? related as Any : Set(related) as Any, slot)
            }
        }
    }
}
