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
    /// With a ``EntityFetchRequest/fetchBatchSize`` greater than 0 (in a context on a
    /// coordinator), the objects the store matched in SQL come back as faults grouped in
    /// batches of that size: firing one fills its whole batch with one store query, and only
    /// the two batches touched last keep their values (the objects of older ones without
    /// unsaved changes turn back into faults). See Docs/Porting.md for how this differs from
    /// Apple's batch-faulting array.
    ///
    /// - Parameter request: The entity, predicate, order, limits and batch size.
    /// - Returns: The matching objects, registered in this context.
    /// - Throws: ``ManagedObjectContextError/unknownEntity(_:)``, the stores' errors, and
    ///   predicate evaluation errors.
    public func fetch(_ request: EntityFetchRequest) throws -> [ManagedObject] {
        if request.fetchBatchSize > 0 && parent == nil {
            return try fetchInBatches(request)
        }
        let objects = try fetch(request, storeResultType: .rows)
        if !request.relationshipKeyPathsForPrefetching.isEmpty {
            prefetchRelationships(request.relationshipKeyPathsForPrefetching, of: objects)
        }
        return objects
    }

    /// ``fetch(_:)`` telling the stores whether values are needed (`.objectIDs` for ID and
    /// count fetches).
    ///
    /// Objects a store returns as IDs (faults) stay faults: when the store applied the
    /// predicate, a fault is not evaluated again (its values are the store's, which the store
    /// evaluated), and when a single store also applied the order and no unsaved object takes
    /// part, the store's order is kept, so a fetch loads no values by itself.
    package func fetch(_ request: EntityFetchRequest, storeResultType: StoreFetchRequest.ResultType) throws -> [ManagedObject] {
        var counted = 0
        return try fetch(request, storeResultType: storeResultType, counted: &counted)
    }

    /// The fetch; for `.count` (only asked without unsaved changes, offset or limit), the
    /// objects that stores counted without returning them are added to `counted`. When a store
    /// applied offset and limit but a registered object holds values older than its row (saved
    /// elsewhere since it was loaded), the fetch runs again with offset and limit applied here.
    private func fetch(_ request: EntityFetchRequest, storeResultType: StoreFetchRequest.ResultType,
                       counted: inout Int) throws -> [ManagedObject] {
        if let objects = try fetch(request, storeResultType: storeResultType, counted: &counted, storeLimits: true) {
            return objects
        }
        return try fetch(request, storeResultType: storeResultType, counted: &counted, storeLimits: false) ?? []
    }

    /// One pass of the fetch; `nil` when the store applied offset and limit and an object
    /// with older values than its row took part.
    private func fetch(_ request: EntityFetchRequest, storeResultType: StoreFetchRequest.ResultType,
                       counted: inout Int, storeLimits: Bool) throws -> [ManagedObject]? {
        enterConfinement("fetch(_:)")
        defer { exitConfinement() }
        let names = try entityNames(for: request)
        var objects: [ManagedObject] = []
        // `objects[..<seenUpTo]` are in `seen`. An object this fetch makes from a row is new to
        // the result: it is appended without a set insert, and entered in `seen` only when the
        // set is next needed (`appendIfNew`), which a fetch of new objects alone never does.
        var seen = Set<ObjectIdentifier>()
        var seenUpTo = 0
        func enterSeen() {
            // Room for the whole answer at once (the result's capacity is reserved per answer).
            if seen.capacity < objects.capacity { seen.reserveCapacity(objects.capacity) }
            while seenUpTo < objects.count {
                seen.insert(ObjectIdentifier(objects[seenUpTo]))
                seenUpTo += 1
            }
        }
        /// Appends `object` unless the result has it; whether it was appended.
        func appendIfNew(_ object: ManagedObject) -> Bool {
            enterSeen()
            guard seen.insert(ObjectIdentifier(object)).inserted else { return false }
            objects.append(object)
            seenUpTo = objects.count
            return true
        }
        var matchedByStore = Set<ObjectIdentifier>()
        // A child's rows are its parent's current state (in no particular order); a context
        // on a coordinator asks the stores.
        let stores = parent == nil ? storesHolding(names) : []
        // A store applies the predicate only where its saved rows decide it: with unsaved
        // changes, only a predicate on the objects' own properties (changed objects are then
        // added below and checked in memory); offset and limit only with no unsaved changes
        // and one store.
        let clean = inserted.isEmpty && updated.isEmpty && deleted.isEmpty
        let passesPredicate = clean || (request.includesPendingChanges && (request.predicate.map { FetchScope.ownKeys(of: $0) != nil } ?? true))
        var storeRequest = StoreFetchRequest(entityNames: names,
                                             predicate: passesPredicate ? request.predicate.map(storePredicate) : nil,
                                             resultType: storeResultType)
        // The store's order counts only without unsaved changes (a changed related object may
        // move an object the store would order by its saved values).
        if clean { storeRequest.sortDescriptors = request.sortDescriptors }
        let storeDecides = clean && stores.count == 1
        let passesLimits = storeDecides && storeLimits && (request.fetchOffset > 0 || request.fetchLimit > 0)
        if storeDecides && storeLimits {
            storeRequest.fetchOffset = request.fetchOffset
            storeRequest.fetchLimit = request.fetchLimit
        }
        var applied = (predicate: storeDecides, orderAndLimits: storeDecides && storeLimits)
        // Registered objects loaded from an older version of their row: their own values decide.
        var stale = Set<ObjectIdentifier>()
        var filled: [StoreRow] = []
        var filledAnswers: [[StoreRow]] = []
        var storesOrdered = stores.count <= 1
        if parent != nil {
            adoptPermanentIDsOfPushedObjects()
            storesOrdered = false
            for row in try sourceRows(for: storeRequest) {
                let object = try registeredObject(for: row, filled: &filled)
                _ = appendIfNew(object)
            }
        }
        for store in stores {
            if let store = store as? InMemoryStore {
                // The in-memory store's rows are read where they lie: a registered loaded
                // object needs only its row's ID and version, and only the rows that make or
                // fill an object are copied (for `filled`). Its answer needs no check (its rows
                // are of the entities asked, saved through this store's IDs).
                let selection = store.fetchSelection(storeRequest)
                applied.predicate = applied.predicate && (selection.appliedPredicate || request.predicate == nil)
                applied.orderAndLimits = applied.orderAndLimits && selection.appliedOrderAndLimits
                storesOrdered = storesOrdered && clean && selection.appliedOrderAndLimits
                objects.reserveCapacity(objects.count + selection.count)
                var reservedFilled = false
                var classes = ObjectClassCache()
                // The store holds one row per ID and selects each row once: into an empty
                // result, a registered object is appended without asking `seen`.
                let firstAnswer = objects.isEmpty
                try selection.forEachRow { row in
                    guard let known = registered[row.pointee.objectID] else {
                        if !reservedFilled {
                            reservedFilled = true
                            registered.reserveCapacity(registered.count + selection.count)
                            filled.reserveCapacity(filled.count + selection.count)
                        }
                        // Made here: in the result once, as no other row or ID made it.
                        objects.append(try newFilledObject(at: row, classes: &classes))
                        filled.append(row.pointee)
                        return
                    }
                    if known.faultFlag {
                        _ = try filledObject(for: row.pointee, known: known, classes: &classes)
                        filled.append(row.pointee)
                    } else if known.storeVersion != row.pointee.version {
                        stale.insert(ObjectIdentifier(known))
                    }
                    if firstAnswer { objects.append(known) } else { _ = appendIfNew(known) }
                }
                continue
            }
            let result = try store.fetch(storeRequest)
            try checkFetchAnswer(result, of: store, names: names)
            if storeResultType == .count, let count = result.count,
               passesPredicate && (result.appliedPredicate || request.predicate == nil) {
                counted += count
                continue
            }
            applied.predicate = applied.predicate && (result.appliedPredicate || request.predicate == nil)
            applied.orderAndLimits = applied.orderAndLimits && result.appliedOrderAndLimits
            storesOrdered = storesOrdered && clean && result.appliedOrderAndLimits
            // Room for the answer at once, not by doubling.
            let answered = result.rows.count + result.objectIDs.count
            objects.reserveCapacity(objects.count + answered)
            registered.reserveCapacity(registered.count + answered)
            // While every row makes (or fills) an object, the answer's own array of rows is
            // what the row cache keeps: no copy of each row.
            var everyRowFilled = true
            var classes = ObjectClassCache()
            // The rows read in place through the buffer (a `for row in` loop, or an array
            // element passed on, copies each row: a retain per value it holds).
            try result.rows.withUnsafeBufferPointer { rows in
                for index in rows.indices {
                    let known = registered[rows[index].objectID]
                    if let known, !known.faultFlag, known.storeVersion != rows[index].version {
                        stale.insert(ObjectIdentifier(known))
                    }
                    guard let known else {
                        // Made here: in the result once, as no other row or ID made it.
                        objects.append(try newFilledObject(at: rows.baseAddress! + index, classes: &classes))
                        if !everyRowFilled { filled.append(rows[index]) }
                        continue
                    }
                    if !known.faultFlag {
                        if everyRowFilled {
                            everyRowFilled = false
                            filled.append(contentsOf: rows[..<index])
                        }
                    } else {
                        _ = try filledObject(for: rows[index], known: known, classes: &classes)
                        if !everyRowFilled { filled.append(rows[index]) }
                    }
                    _ = appendIfNew(known)
                }
            }
            if everyRowFilled && !result.rows.isEmpty { filledAnswers.append(result.rows) }
            for id in result.objectIDs {
                let object = try registered[id] ?? fault(for: id)
                guard appendIfNew(object) else { continue }
                if result.appliedPredicate && passesPredicate { matchedByStore.insert(ObjectIdentifier(object)) }
            }
        }
        // The rows that filled objects are cached (rows of loaded objects are not looked at);
        // a child's rows are its parent's unsaved state, never cached.
        if parent == nil, let coordinator {
            if !filled.isEmpty { coordinator.rowCache.store(filled) }
            for rows in filledAnswers { coordinator.rowCache.store(rows) }
        }
        var addedPending = false
        if request.includesPendingChanges && !clean {
            enterSeen()
            objects.removeAll { deleted.contains($0) }
            seenUpTo = objects.count
            // Inserted objects, and changed ones whose unsaved values may match where their
            // saved values (which the store looked at) did not.
            let wanted = Set(names)
            for object in inserted.union(updated).sorted(by: { $0.registrationSequence < $1.registrationSequence })
                where wanted.contains(object.entity.name) && seen.insert(ObjectIdentifier(object)).inserted {
                objects.append(object)
                addedPending = true
            }
        }
        if passesLimits && !stale.isEmpty { return nil }
        if let predicate = request.predicate, !applied.predicate || !stale.isEmpty {
            // A fault the store matched holds the store's values: the store evaluated them.
            objects = try objects.filter { object in
                if applied.predicate && !stale.contains(ObjectIdentifier(object)) { return true }
                if object.faultFlag && matchedByStore.contains(ObjectIdentifier(object)) { return true }
                return try predicate.evaluate(with: object)
            }
        }
        // With no unsaved changes, one store that applied predicate, order, offset and limit
        // decided the whole result.
        if applied.predicate && applied.orderAndLimits && stale.isEmpty { return objects }
        let keepsStoreOrder = storesOrdered && !stores.isEmpty && !addedPending && stale.isEmpty
            && !objects.contains { updated.contains($0) || inserted.contains($0) }
        if !request.sortDescriptors.isEmpty && !keepsStoreOrder { objects = try objects.sorted(using: request.sortDescriptors) }
        if request.fetchOffset > 0 { objects = Array(objects.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 && objects.count > request.fetchLimit { objects = Array(objects.prefix(request.fetchLimit)) }
        return objects
    }

    /// The IDs of the objects a request matches (Apple: result type `.managedObjectIDResultType`).
    ///
    /// With no unsaved changes and one store, the store is asked for IDs only (SQL selects
    /// only the keys); otherwise the objects are fetched and their IDs returned.
    public func fetchObjectIDs(_ request: EntityFetchRequest) throws -> [ManagedObjectID] {
        if let result = try storeOnlyFetch(request, .objectIDs) { return result.objectIDs }
        return try fetch(request, storeResultType: .objectIDs).map(\.objectID)
    }

    /// The number of objects a request matches (Apple: `count(for:)`).
    ///
    /// When the context has no unsaved changes and the request no offset or limit, stores may
    /// answer with a number alone (``StoreFetchResult/count``); otherwise the matching objects'
    /// IDs are counted.
    public func count(for request: EntityFetchRequest) throws -> Int {
        if let result = try storeOnlyFetch(request, .count), let count = result.count { return count }
        guard !hasChanges && request.fetchOffset == 0 && request.fetchLimit == 0 else {
            return try fetch(request, storeResultType: .objectIDs).count
        }
        var counted = 0
        let objects = try fetch(request, storeResultType: .count, counted: &counted)
        return counted + objects.count
    }

    /// A store's IDs or count for a request, answered without making objects: when the context
    /// has no unsaved changes and no parent, one store holds the entities, and the store
    /// decided the whole request; `nil` otherwise.
    private func storeOnlyFetch(_ request: EntityFetchRequest, _ type: StoreFetchRequest.ResultType) throws -> StoreFetchResult? {
        guard parent == nil, inserted.isEmpty && updated.isEmpty && deleted.isEmpty else { return nil }
        let names = try entityNames(for: request)
        let stores = storesHolding(names)
        guard stores.count == 1 else { return nil }
        let storeRequest = StoreFetchRequest(entityNames: names, predicate: request.predicate.map(storePredicate),
                                             sortDescriptors: request.sortDescriptors, fetchOffset: request.fetchOffset,
                                             fetchLimit: request.fetchLimit, resultType: type)
        let result = try stores[0].fetch(storeRequest)
        try checkFetchAnswer(result, of: stores[0], names: names)
        let ordered = result.appliedOrderAndLimits
            || (request.fetchOffset == 0 && request.fetchLimit == 0 && (type == .count || request.sortDescriptors.isEmpty))
        let answered = type == .count ? result.count != nil : result.rows.isEmpty
        guard answered, result.appliedPredicate || request.predicate == nil, ordered else { return nil }
        return result
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
        if id.isTemporaryID {
            // A child reaches the objects its parents inserted by their temporary IDs.
            guard parent != nil, try sourceRow(for: id) != nil else { throw ManagedObjectContextError.objectNotFound(id) }
        }
        return try fault(for: id)
    }

    /// The object with an ID, loaded, or a thrown error when its store does not have it
    /// (Apple: `existingObject(with:)`).
    ///
    /// - Throws: ``ManagedObjectContextError/objectNotFound(_:)``; the store's error when it
    ///   cannot read the object (for the SQLite store, a damaged file or rows of an entity the
    ///   model does not have).
    public func existingObject(with id: ManagedObjectID) throws -> ManagedObject {
        let object = try self.object(with: id)
        if inserted.contains(object) { return object }
        guard let row = try sourceRow(for: id) else { throw ManagedObjectContextError.objectNotFound(id) }
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

    package func storesHolding(_ names: [String]) -> [any PersistentStore] {
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
    private func registeredObject(for row: StoreRow, filled: inout [StoreRow]) throws -> ManagedObject {
        if let object = registered[row.objectID] {
            if object.faultFlag {
                fill(object, from: row)
                filled.append(row)
            }
            return object
        }
        // A store (possibly a user's own) may hand back a row of an entity the model lacks.
        let object = try makeObject(entityName: row.objectID.entityName, id: row.objectID)
        register(object)
        fill(object, from: row)
        filled.append(row)
        return object
    }

    /// The object of a row that is not registered (`known` is `nil`: made, registered and
    /// filled) or registered as a fault (`known`: filled).
    private func filledObject(for row: StoreRow, known: ManagedObject?,
                              classes: inout ObjectClassCache) throws -> ManagedObject {
        if let known {
            fill(known, from: row)
            return known
        }
        // A store (possibly a user's own) may hand back a row of an entity the model lacks.
        let name = row.objectID.entityName
        let object = try classes.objectClass(of: name, in: model).init(entityName: name, in: model)
        object.objectID = row.objectID
        object.clearSlotValues()
        register(object)
        fill(object, from: row)
        return object
    }

    /// ``filledObject(for:known:classes:)`` for a row whose object is not registered, read
    /// where it lies in the store's answer (passing the row on would copy it: a retain per
    /// value it holds). A packed row of the object's entity whose slots are all stored
    /// attributes gives the object its values array as it is (what ``fillValues(_:from:)``
    /// does for it); any other row is filled by ``fill(_:from:)``.
    private func newFilledObject(at row: UnsafePointer<StoreRow>, classes: inout ObjectClassCache) throws -> ManagedObject {
        // A store (possibly a user's own) may hand back a row of an entity the model lacks.
        let name = row.pointee.objectID.entityName
        let object = try classes.objectClass(of: name, in: model).init(entityName: name, in: model)
        object.objectID = row.pointee.objectID
        object.clearSlotValues()
        register(object)
        let layout = object.layout
        guard !layout.hasFields, let values = row.pointee.storedSlotValues(forSlotKeys: layout.keys) else {
            fill(object, from: row.pointee)
            return object
        }
        object.faultFlag = false
        object.faultedRelationshipSlots = 0
        object.storeVersion = row.pointee.version
        object.values = values
        // Changes made while waking are the object's loaded state, not changes.
        let wasRestoring = isRestoring
        isRestoring = true
        object.awakeFromFetch()
        isRestoring = wasRestoring
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
    /// A row younger than ``stalenessInterval`` comes from the coordinator's row cache.
    package func fulfillFault(_ object: ManagedObject) {
        checkConfinement("firing a fault")
        if let batch = object.fetchBatch, fillBatch(batch, firing: object) { return }
        guard let row = try? sourceRow(for: object.objectID) else { return }
        fill(object, from: row)
    }

    /// The row of `id`: the coordinator's cached row when younger than ``stalenessInterval``,
    /// else the store's (then cached); `nil` when the store does not have it.
    package func currentRow(for id: ManagedObjectID) -> StoreRow? {
        (try? storeRow(for: id)) ?? nil
    }

    /// ``currentRow(for:)``, with the store's error thrown (a damaged file, a row of an
    /// entity the model lacks) rather than taken for a missing row.
    package func storeRow(for id: ManagedObjectID) throws -> StoreRow? {
        guard let coordinator else { return nil }
        if let row = coordinator.rowCache.row(for: id, maximumAge: stalenessInterval) { return row }
        guard let storeID = id.storeIdentifier, let store = coordinator.store(withIdentifier: storeID),
              let row = try store.row(for: id) else { return nil }
        coordinator.rowCache.store(CollectionOfOne(row))
        return row
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
        object.faultedRelationshipSlots = 0
        object.storeVersion = row.version
        let layout = object.layout
        if let columns = row.columns, columns.shape.slotKeys == layout.keys {
            fillPackedValues(object, from: row, columns: columns)
            return
        }
        for slot in layout.fillPlan.indices {
            switch layout.fillPlan[slot] {
            case .attribute(let fill):
                let value = row.attributes[layout.keys[slot]].flatMap { fill.attribute.typedValue(from: $0) ?? nil }
                object.storeLoadedSlotValue(value, slot)
            case .relationship(let name, let cardinality, let destination):
                fillRelationship(object, slot: slot, from: row, name: name, cardinality: cardinality, destination: destination)
            case .none:
                break
            }
        }
    }

    /// ``fillValues(_:from:)`` for a packed row of the object's entity: the slot values are
    /// taken as one array (shared with the row until the object changes), then the
    /// relationships are filled.
    private func fillPackedValues(_ object: ManagedObject, from row: StoreRow, columns: StoreRowColumns) {
        let layout = object.layout
        let shape = columns.shape
        if layout.hasFields {
            for slot in shape.slots where slot >= 0 {
                object.storeLoadedSlotValue(columns.slotValues[slot], slot)
            }
            // Transient attributes hold nothing after a load, as with an unpacked row.
            for slot in shape.otherSlots {
                if case .attribute = layout.fillPlan[slot] { object.storeLoadedSlotValue(nil, slot) }
            }
        } else {
            var values = columns.slotValues
            // Fetched properties keep what they hold; relationships are filled below.
            for slot in shape.otherSlots {
                if case .none = layout.fillPlan[slot] { values[slot] = object.values[slot] }
            }
            object.values = values
        }
        for slot in shape.otherSlots {
            if case .relationship(let name, let cardinality, let destination) = layout.fillPlan[slot] {
                fillRelationship(object, slot: slot, from: row, name: name, cardinality: cardinality, destination: destination)
            }
        }
    }

    /// Puts a row's related objects into a relationship's slot.
    private func fillRelationship(_ object: ManagedObject, slot: Int, from row: StoreRow, name: String,
                                  cardinality: RelationshipDescription.Cardinality, destination: String) {
        // A to-many the row left out is a relationship fault, loaded on first access.
        guard let ids = row.relationships[name] ?? missingRelationship(name, cardinality, slot: slot, of: object) else { return }
        let related = relatedObjects(ids, destination: destination)
        switch cardinality {
        case .toOne: object.storeLoadedSlotValue(related.first, slot)
        case .toMany: object.storeLoadedSlotValue(Set(related), slot)
        case .orderedToMany: object.storeLoadedSlotValue(related, slot)
        }
    }
}

/// The class of the last entity whose object a fetch made: the rows of one answer are mostly
/// of one entity, so its class is looked up once rather than once per row.
struct ObjectClassCache {
    private var name: String?
    private var type: ManagedObject.Type?

    mutating func objectClass(of entityName: String, in model: ManagedObjectModel) -> ManagedObject.Type {
        if let type, name == entityName { return type }
        let found = model.managedObjectClass(forEntityNamed: entityName)
        name = entityName
        type = found
        return found
    }
}
