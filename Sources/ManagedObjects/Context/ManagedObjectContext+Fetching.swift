// Fetching: rows from the stores become registered objects; pending changes are reflected.
import Foundation
import KeyValueCoding
import Predicates

extension ManagedObjectContext {
    /// The objects matching a request, from the stores and from the context's unsaved changes
    /// (Apple: `fetch(_:)`).
    ///
    /// With ``EntityFetchRequest/includesPendingChanges`` (the default), objects inserted in
    /// the context match like saved ones, deleted ones never match, and the predicate sees the
    /// current (unsaved) values. Without it, the stores' objects are returned as the stores
    /// have them: inserted objects are left out and deleted ones still match (the predicate and
    /// the order still read the objects' current values).
    ///
    /// - Parameter request: The entity, predicate, order and limits.
    /// - Returns: The matching objects, registered in this context.
    /// - Throws: ``ManagedObjectContextError/unknownEntity(_:)``, the stores' errors, and
    ///   predicate evaluation errors.
    public func fetch(_ request: EntityFetchRequest) throws -> [ManagedObject] {
        enterConfinement("fetch(_:)")
        defer { exitConfinement() }
        let names = try entityNames(for: request)
        let stores = storesHolding(names)
        // Offset and limit go to the store only when one store holds the entities and no
        // unsaved change can add or remove a match (the store's answer is then the whole one).
        if stores.count == 1, !hasChanges, request.fetchOffset > 0 || request.fetchLimit > 0,
           let objects = try fetchObjects(request, names: names, stores: stores, passingLimits: true) {
            return objects
        }
        // (A registered object whose values are not the store's, saved elsewhere since it was
        // loaded, had to be tested again: the store's offset and limit did not count it right.)
        return try fetchObjects(request, names: names, stores: stores, passingLimits: false)!
    }

    /// The objects a request matches. A store that applied the predicate is trusted for the
    /// objects whose values are the ones it looked at (not changed in this context, loaded from
    /// the same row version) when the predicate reads only their own saved attributes; every
    /// other object is tested here, with its current values. `nil` when the store applied
    /// offset and limit but an object had to be tested again.
    private func fetchObjects(_ request: EntityFetchRequest, names: [String], stores: [any PersistentStore],
                              passingLimits: Bool) throws -> [ManagedObject]? {
        var objects: [ManagedObject] = []
        var untested: [Bool] = []          // per object: the store's verdict stands
        var seen = Set<ObjectIdentifier>()
        var storeRequest = StoreFetchRequest(entityNames: names, predicate: request.predicate.map(storePredicate),
                                             sortDescriptors: request.sortDescriptors)
        if passingLimits {
            storeRequest.fetchOffset = request.fetchOffset
            storeRequest.fetchLimit = request.fetchLimit
        }
        let trustsStores = request.predicate.map { predicateReadsOwnAttributes($0, names: names) } ?? true
        var storeOrder = stores.count == 1 && !request.sortDescriptors.isEmpty
            && FetchScope.ownKeys(of: request.sortDescriptors).map { isSubset($0, ofStoredAttributesOf: names) } == true
        var storeLimits = passingLimits
        for store in stores {
            let result = try store.fetch(storeRequest)
            storeOrder = storeOrder && result.appliedOrderAndLimits
            storeLimits = storeLimits && result.appliedOrderAndLimits
            let trusted = trustsStores && result.appliedPredicate
            for row in result.rows {
                let object = registeredObject(for: row)
                guard seen.insert(ObjectIdentifier(object)).inserted else { continue }
                objects.append(object)
                untested.append(trusted && hasStoreValues(object, row: row))
            }
        }
        if request.includesPendingChanges {
            var kept = 0
            for index in objects.indices where !deleted.contains(objects[index]) {
                objects.swapAt(kept, index)
                untested.swapAt(kept, index)
                kept += 1
            }
            objects.removeLast(objects.count - kept)
            untested.removeLast(untested.count - kept)
            // Inserted objects, and changed ones whose unsaved values may match where their
            // saved values (which the store looked at) did not.
            let wanted = Set(names)
            for object in inserted.union(updated).sorted(by: { $0.registrationSequence < $1.registrationSequence })
                where wanted.contains(object.entity.name) && seen.insert(ObjectIdentifier(object)).inserted {
                objects.append(object)
                untested.append(false)
            }
        }
        let allUntested = !untested.contains(false)
        if let predicate = request.predicate, !allUntested {
            if storeLimits { return nil }
            var matching: [ManagedObject] = []
            for (object, trusted) in zip(objects, untested) where try trusted || predicate.evaluate(with: object) {
                matching.append(object)
            }
            objects = matching
        }
        if !request.sortDescriptors.isEmpty && !(storeOrder && allUntested) {
            objects = try objects.sorted(using: request.sortDescriptors)
        }
        if !storeLimits {
            if request.fetchOffset > 0 { objects = Array(objects.dropFirst(request.fetchOffset)) }
            if request.fetchLimit > 0 && objects.count > request.fetchLimit { objects = Array(objects.prefix(request.fetchLimit)) }
        }
        return objects
    }

    /// Whether `object` holds the values of `row`: not changed in this context, and loaded
    /// from the row's version.
    private func hasStoreValues(_ object: ManagedObject, row: StoreRow) -> Bool {
        object.changeSetMembership.isEmpty && object.storeVersion == row.version && !object.faultFlag
    }

    /// Whether `predicate` reads only saved attributes of the objects of every entity named, so
    /// that a store's verdict on a row is the verdict on an object holding the row's values.
    private func predicateReadsOwnAttributes(_ predicate: KeyValuePredicate, names: [String]) -> Bool {
        guard let keys = FetchScope.ownKeys(of: predicate) else { return false }
        return isSubset(keys, ofStoredAttributesOf: names)
    }

    private func isSubset(_ keys: Set<String>, ofStoredAttributesOf names: [String]) -> Bool {
        keys.isEmpty || keys.isSubset(of: FetchScope.storedAttributeNames(of: names.compactMap { model.entity(named: $0) }))
    }

    /// The IDs of the objects a request matches (Apple: result type `.managedObjectIDResultType`).
    public func fetchObjectIDs(_ request: EntityFetchRequest) throws -> [ManagedObjectID] {
        try fetch(request).map(\.objectID)
    }

    /// The number of objects a request matches (Apple: `count(for:)`).
    public func count(for request: EntityFetchRequest) throws -> Int {
        try fetch(request).count
    }

    /// The object with an ID: the registered one, or a fault for it (Apple: `object(with:)`).
    /// The fault's values load on first access; use ``existingObject(with:)`` to check that
    /// the store has the object.
    ///
    /// - Parameter id: A permanent ID of one of the coordinator's stores, or the temporary ID of
    ///   an object inserted in this context.
    /// - Throws: ``ManagedObjectContextError/unknownEntity(_:)`` when the model has no such
    ///   entity; ``ManagedObjectContextError/objectNotFound(_:)`` for a temporary ID not
    ///   registered here.
    public func object(with id: ManagedObjectID) throws -> ManagedObject {
        if let object = registered[id] { return object }
        guard !id.isTemporaryID else { throw ManagedObjectContextError.objectNotFound(id) }
        return try fault(for: id)
    }

    /// The object with an ID, loaded, or a thrown error when its store does not have it
    /// (Apple: `existingObject(with:)`).
    ///
    /// - Throws: ``ManagedObjectContextError/objectNotFound(_:)``.
    public func existingObject(with id: ManagedObjectID) throws -> ManagedObject {
        let object = try self.object(with: id)
        if inserted.contains(object) { return object }
        guard let storeID = id.storeIdentifier, let store = coordinator?.store(withIdentifier: storeID),
              let row = try store.row(for: id) else { throw ManagedObjectContextError.objectNotFound(id) }
        if object.faultFlag { fill(object, from: row) }
        return object
    }

    // MARK: Rows to objects

    /// The request's entity and, when asked, its concrete descendants.
    package func entityNames(for request: EntityFetchRequest) throws -> [String] {
        guard let entity = model.entity(named: request.entityName) else {
            throw ManagedObjectContextError.unknownEntity(request.entityName)
        }
        var names: [String] = []
        var pending = [entity]
        while let next = pending.popLast() {
            if !next.isAbstract { names.append(next.name) }
            if request.includesSubentities { pending += model.subentities(of: next) }
        }
        return names
    }

    private func storesHolding(_ names: [String]) -> [any PersistentStore] {
        guard let coordinator else { return [] }
        var stores: [any PersistentStore] = []
        for name in names {
            for store in coordinator.stores(forEntityNamed: name) where !stores.contains(where: { $0 === store }) {
                stores.append(store)
            }
        }
        return stores
    }

    /// The predicate with managed objects replaced by their IDs, for a store.
    private func storePredicate(_ predicate: KeyValuePredicate) -> KeyValuePredicate {
        predicate.mappingConstants { constant in
            guard case .object(let reference) = constant, let object = reference.object as? ManagedObject else { return constant }
            return KeyValueConstant(object.objectID)
        }
    }

    /// The registered object of a row, made (and filled) when new; a registered fault is filled.
    /// Registered objects keep their values (and unsaved changes).
    private func registeredObject(for row: StoreRow) -> ManagedObject {
        if let object = registered[row.objectID] {
            if object.faultFlag { fill(object, from: row) }
            return object
        }
        // The row's entity is in the model: the store was loaded for it.
        let object = try! makeObject(entityName: row.objectID.entityName, id: row.objectID)
        register(object)
        fill(object, from: row)
        return object
    }

    /// A registered fault for `id`.
    package func fault(for id: ManagedObjectID) throws -> ManagedObject {
        guard model.entity(named: id.entityName) != nil else { throw ManagedObjectContextError.unknownEntity(id.entityName) }
        let object = try makeObject(entityName: id.entityName, id: id)
        object.faultFlag = true
        register(object)
        return object
    }

    /// A new object of an entity with a given ID, values empty.
    package func makeObject(entityName: String, id: ManagedObjectID) throws -> ManagedObject {
        let object = try model.managedObjectClass(forEntityNamed: entityName).init(entityName: entityName, in: model)
        object.objectID = id
        object.clearSlotValues()
        return object
    }

    /// Loads a fault's values from its store.
    package func fulfillFault(_ object: ManagedObject) {
        guard let storeID = object.objectID.storeIdentifier, let store = coordinator?.store(withIdentifier: storeID),
              let row = try? store.row(for: object.objectID) else { return }
        fill(object, from: row)
    }

    /// Puts a row's values into an object's slots, without notifications, and wakes it.
    package func fill(_ object: ManagedObject, from row: StoreRow) {
        fillValues(object, from: row)
        // Changes made while waking are the object's loaded state, not changes.
        let wasRestoring = isRestoring
        isRestoring = true
        object.awakeFromFetch()
        isRestoring = wasRestoring
    }

    /// Puts a row's values into an object's slots, without notifications.
    package func fillValues(_ object: ManagedObject, from row: StoreRow) {
        object.faultFlag = false
        object.storeVersion = row.version
        for (slot, property) in object.layout.properties.enumerated() {
            switch property {
            case .attribute(let attribute):
                object.storeLoadedSlotValue(row.attributes[attribute.name].flatMap { attribute.typedValue(from: $0) ?? nil }, slot)
            case .relationship(let relationship):
                let ids = row.relationships[relationship.name] ?? []
                let related = ids.compactMap { try? self.object(with: $0) }
                switch relationship.cardinality {
                case .toOne: object.storeLoadedSlotValue(related.first, slot)
                case .toMany: object.storeLoadedSlotValue(Set(related), slot)
                case .orderedToMany: object.storeLoadedSlotValue(related, slot)
                }
            case .fetchedProperty:
                break
            }
        }
    }
}
