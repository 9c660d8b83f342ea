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
        // The result is passed to these two, not captured: a variable that local functions
        // capture is boxed, and each append to it (one per object) was then checked for
        // exclusive access at run time.
        var seen = Set<ObjectIdentifier>()
        var seenUpTo = 0
        func enterSeen(_ objects: [ManagedObject]) {
            // Room for the whole answer at once (the result's capacity is reserved per answer).
            if seen.capacity < objects.capacity { seen.reserveCapacity(objects.capacity) }
            while seenUpTo < objects.count {
                seen.insert(ObjectIdentifier(objects[seenUpTo]))
                seenUpTo += 1
            }
        }
        /// Appends `object` unless the result has it; whether it was appended.
        func appendIfNew(_ object: ManagedObject, to objects: inout [ManagedObject]) -> Bool {
            enterSeen(objects)
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
        // Objects without their values (`includesPropertyValues` off): new ones are made as
        // faults holding their rows' versions; a store may answer with IDs and versions. So are
        // the objects of a batched fetch on every store, even one that answers with rows (the
        // in-memory store): their batches fill them when read, and a row deleted by then is a
        // fault that cannot be fulfilled, not the deleted row's old values.
        let faultsOnly = parent == nil && (storeResultType == .rows ? !request.includesPropertyValues
                                                                     : storeResultType == .objectIDs && request.fetchBatchSize > 0)
        storeRequest.includesPropertyValues = !faultsOnly
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
            adoptPermanentIDsFromParent()
            storesOrdered = false
            for row in try sourceRows(for: storeRequest) {
                let object = try registeredObject(for: row, filled: &filled)
                _ = appendIfNew(object, to: &objects)
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
                // Faults the store matched hold the values it matched: not evaluated again.
                let notesFaultMatches = faultsOnly && request.predicate != nil && selection.appliedPredicate && passesPredicate
                try selection.forEachRow { row in
                    guard let known = registered[row.pointee.objectID] else {
                        if !reservedFilled {
                            reservedFilled = true
                            registered.reserveCapacity(registered.count + selection.count)
                            if !faultsOnly { filled.reserveCapacity(filled.count + selection.count) }
                        }
                        if faultsOnly {
                            // A fault of the row's version: its values are read where they
                            // lie when it fires.
                            let fault = try newFault(for: row.pointee.objectID, version: row.pointee.version, classes: &classes)
                            objects.append(fault)
                            if notesFaultMatches { matchedByStore.insert(ObjectIdentifier(fault)) }
                            return
                        }
                        // Made here: in the result once, as no other row or ID made it.
                        objects.append(try newFilledObject(at: row, classes: &classes))
                        filled.append(row.pointee)
                        return
                    }
                    if known.faultFlag && faultsOnly {
                        known.storeVersion = row.pointee.version
                        if notesFaultMatches { matchedByStore.insert(ObjectIdentifier(known)) }
                    } else if known.faultFlag {
                        _ = try filledObject(for: row.pointee, known: known, classes: &classes)
                        filled.append(row.pointee)
                    } else if known.storeVersion != row.pointee.version {
                        stale.insert(ObjectIdentifier(known))
                    }
                    if firstAnswer { objects.append(known) } else { _ = appendIfNew(known, to: &objects) }
                }
                continue
            }
            let result = try store.fetch(storeRequest)
            try checkFetchAnswer(result, of: store, names: names)
            if storeResultType == .count, let count = result.count,
               passesPredicate && (result.appliedPredicate || request.predicate == nil) {
                counted = try Self.adding(count: count, to: counted, of: store)
                continue
            }
            applied.predicate = applied.predicate && (result.appliedPredicate || request.predicate == nil)
            applied.orderAndLimits = applied.orderAndLimits && result.appliedOrderAndLimits
            storesOrdered = storesOrdered && clean && result.appliedOrderAndLimits
            // Room for the answer at once, not by doubling.
            let answered = result.rows.count + result.objectIDs.count
            objects.reserveCapacity(objects.count + answered)
            // While every row makes (or fills) an object, the answer's own array of rows is
            // what the row cache keeps: no copy of each row.
            var everyRowFilled = true
            var classes = ObjectClassCache()
            // The rows read in place through the buffer (a `for row in` loop, or an array
            // element passed on, copies each row: a retain per value it holds).
            // Rows naming each object once, answered into an empty registry: a row's object
            // can be registered only if something registered objects on the way (an
            // `awakeFromFetch`), which the registration count shows. Until then each row
            // makes its object without a look-up, and its registry entry waits until the
            // registry is used (``registerAwaitingEntry(_:)``: no hash probe here at all).
            var unregisteredWhileCount = result.rowsNameEachObjectOnce && registered.isEmpty ? registrationCount : nil
            if unregisteredWhileCount != nil {
                unindexedFetches.reserveCapacity(unindexedFetches.count + result.rows.count)
            } else {
                registered.reserveCapacity(registered.count + answered)
            }
            // Faults the store matched hold the values it matched: not evaluated again.
            let notesFaultMatches = faultsOnly && request.predicate != nil && result.appliedPredicate && passesPredicate
            try result.rows.withUnsafeBufferPointer { rows in
                for index in rows.indices {
                    let known: ManagedObject?
                    // Whether no registered object can have the row's ID (no look-up made).
                    let unregistered = unregisteredWhileCount == registrationCount
                    if unregistered {
                        known = nil
                    } else {
                        unregisteredWhileCount = nil
                        known = registered[rows[index].objectID]
                    }
                    if let known, !known.faultFlag, known.storeVersion != rows[index].version {
                        stale.insert(ObjectIdentifier(known))
                    }
                    guard let known else {
                        // Made here: in the result once, as no other row or ID made it. (Rows a
                        // store gave although values were not asked for make faults, and are
                        // cached for them.)
                        if faultsOnly {
                            let fault = try newFault(for: rows[index].objectID, version: rows[index].version, classes: &classes,
                                                     awaitingEntry: unregistered)
                            objects.append(fault)
                            if notesFaultMatches { matchedByStore.insert(ObjectIdentifier(fault)) }
                        } else {
                            objects.append(try newFilledObject(at: rows.baseAddress! + index, classes: &classes,
                                                               awaitingEntry: unregistered))
                        }
                        if let count = unregisteredWhileCount { unregisteredWhileCount = count &+ 1 }
                        if !everyRowFilled { filled.append(rows[index]) }
                        continue
                    }
                    if !known.faultFlag {
                        if everyRowFilled {
                            everyRowFilled = false
                            filled.append(contentsOf: rows[..<index])
                        }
                    } else {
                        if faultsOnly {
                            known.storeVersion = rows[index].version
                            if notesFaultMatches { matchedByStore.insert(ObjectIdentifier(known)) }
                        } else {
                            _ = try filledObject(for: rows[index], known: known, classes: &classes)
                        }
                        if !everyRowFilled { filled.append(rows[index]) }
                    }
                    _ = appendIfNew(known, to: &objects)
                }
            }
            if everyRowFilled && !result.rows.isEmpty { filledAnswers.append(result.rows) }
            // With each ID's version (a fetch of faults), a registered fault takes it and a loaded
            // object at another version is stale, as for rows.
            let versions = result.objectVersions.count == result.objectIDs.count ? result.objectVersions : nil
            // Only a predicate filter below asks which objects the store matched.
            let notesMatches = request.predicate != nil && result.appliedPredicate && passesPredicate
            for index in result.objectIDs.indices {
                let id = result.objectIDs[index]
                let object: ManagedObject
                if let known = registered[id] {
                    object = known
                    if let versions {
                        if known.faultFlag {
                            known.storeVersion = versions[index]
                        } else if known.storeVersion != versions[index] {
                            stale.insert(ObjectIdentifier(known))
                        }
                    }
                    guard appendIfNew(object, to: &objects) else { continue }
                } else {
                    // Made here: in the result once (a repeated ID finds it registered).
                    object = try versions.map { try newFault(for: id, version: $0[index], classes: &classes) } ?? fault(for: id)
                    objects.append(object)
                }
                if notesMatches { matchedByStore.insert(ObjectIdentifier(object)) }
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
            enterSeen(objects)
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
        enterConfinement("fetchObjectIDs(_:)")
        defer { exitConfinement() }
        if let result = try storeOnlyFetch(request, .objectIDs) { return result.objectIDs }
        return try fetch(request, storeResultType: .objectIDs).map(\.objectID)
    }

    /// The number of objects a request matches (Apple: `count(for:)`).
    ///
    /// When the context has no unsaved changes and the request no offset or limit, stores may
    /// answer with a number alone (``StoreFetchResult/count``); otherwise the matching objects'
    /// IDs are counted.
    public func count(for request: EntityFetchRequest) throws -> Int {
        enterConfinement("count(for:)")
        defer { exitConfinement() }
        if let result = try storeOnlyFetch(request, .count), let count = result.count { return count }
        guard !hasChanges && request.fetchOffset == 0 && request.fetchLimit == 0 else {
            return try fetch(request, storeResultType: .objectIDs).count
        }
        var counted = 0
        let objects = try fetch(request, storeResultType: .count, counted: &counted)
        let (total, overflow) = counted.addingReportingOverflow(objects.count)
        if overflow, let store = storesHolding(try entityNames(for: request)).first {
            // Only a store's count can be that large: it answered wrongly.
            return try Self.adding(count: counted, to: objects.count, of: store)
        }
        return total
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
        try checkFetchAnswer(result, of: stores[0], names: names, fetchLimit: request.fetchLimit)
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
            // A child reaches the objects its parents inserted by their temporary IDs; one the
            // chain has saved since is the object of its permanent ID (one object per row).
            guard let parent else { throw ManagedObjectContextError.objectNotFound(id) }
            if let current = parent.performAndWait({ parent.currentIDs(ofTemporaryIDs: [id]) })[id], current != id {
                return try object(with: current)
            }
            guard try sourceRow(for: id) != nil else { throw ManagedObjectContextError.objectNotFound(id) }
        } else if parent != nil && !parentTemporaryIDs.isEmpty {
            // The chain may have saved an object known here by its temporary ID since this
            // child last looked: it takes this ID rather than a second object being made.
            adoptPermanentIDsFromParentIfChanged()
            if let object = registered[id] { return object }
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
        let wasRegistered = registered[id] != nil
        let object = try self.object(with: id)
        if inserted.contains(object) { return object }
        do {
            guard let row = try sourceRow(for: id) else { throw ManagedObjectContextError.objectNotFound(id) }
            if object.faultFlag { fill(object, from: row) }
            return object
        } catch {
            // A fault made here for an ID the store does not have leaves again: left registered,
            // it would stand for the ID (undoing the object's delete could not register it back).
            if !wasRegistered { unregister(object) }
            throw error
        }
    }

}
