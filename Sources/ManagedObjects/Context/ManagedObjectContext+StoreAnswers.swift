// The context's checks of what a store (possibly a user's own) answers.
import Foundation

extension ManagedObjectContext {
    /// The store's name in errors: its type and identifier.
    static func storeName(_ store: any PersistentStore) -> String {
        "'\(store.storeType)' (\(store.identifier))"
    }

    /// Permanent IDs from `store` for new objects of `entityNames`, checked: one per name, in
    /// order, each of that entity and of that store, permanent, none repeated and, when
    /// `checkingRegistry` (else the caller checks it), none already naming a registered object.
    ///
    /// - Throws: ``ManagedObjectContextError/invalidStoreAnswer(store:reason:)`` naming the store
    ///   and the wrong ID; whatever the store throws.
    /// - Complexity: O(*n*) in the number of names.
    package func checkedNewObjectIDs(from store: any PersistentStore, for entityNames: [String],
                                     checkingRegistry: Bool = true) throws -> [ManagedObjectID] {
        // Every permanent ID registered then has its entry (see ManagedObjectContext+Registry.swift):
        // the new IDs, all permanent, are checked against the entries, without making those
        // of objects that wait with temporary IDs or none.
        if checkingRegistry { prepareUnindexedInsertsForSave() }
        let ids = try store.newObjectIDs(for: entityNames)
        func wrong(_ reason: String) -> ManagedObjectContextError {
            .invalidStoreAnswer(store: Self.storeName(store), reason: reason)
        }
        guard ids.count == entityNames.count else {
            throw wrong("newObjectIDs(for:) gave \(ids.count) IDs for \(entityNames.count) new objects")
        }
        let identifier = store.identifier
        // IDs with integer keys that rise within each entity cannot repeat (the usual answer:
        // a counter per entity): no set of the IDs is needed to tell.
        let rising = Self.keysRiseByEntity(ids)
        var seen = Set<ManagedObjectID>()
        if !rising { seen.reserveCapacity(ids.count) }
        for (id, name) in zip(ids, entityNames) {
            guard !id.isTemporaryID else { throw wrong("newObjectIDs(for:) gave the temporary ID \(id)") }
            guard id.entityName == name else { throw wrong("newObjectIDs(for:) gave \(id) for a new \(name)") }
            guard id.storeIdentifier == identifier else {
                throw wrong("newObjectIDs(for:) gave \(id), an ID of another store")
            }
            guard rising || seen.insert(id).inserted, !checkingRegistry || registeredByID[id] == nil else {
                throw wrong("newObjectIDs(for:) gave \(id), which already names an object")
            }
        }
        return ids
    }

    /// Whether every ID has an integer key greater than that of every earlier ID of its entity
    /// (then no two are equal). Runs of one entity look its last key up once.
    private static func keysRiseByEntity(_ ids: [ManagedObjectID]) -> Bool {
        var lastKeys: [String: Int64] = [:]
        var runName: String?
        var runLast = Int64.min
        for id in ids {
            guard case .integer(let key) = id.referenceObject else { return false }
            if id.entityName != runName {
                if let runName { lastKeys[runName] = runLast }
                runName = id.entityName
                runLast = lastKeys[id.entityName] ?? .min
            }
            guard key > runLast else { return false }
            runLast = key
        }
        return true
    }

    /// Checks a store's fetch answer: every row and ID is of one of the entities asked for
    /// (`names`: the request's entity and, when asked, its subentities) and of that store, and a
    /// count is not negative. Repeated rows of one ID are allowed: the first one wins.
    ///
    /// - Throws: ``ManagedObjectContextError/invalidStoreAnswer(store:reason:)`` naming the store
    ///   and the entity.
    /// - Complexity: O(*n*) in the number of rows and IDs.
    package func checkFetchAnswer(_ result: StoreFetchResult, of store: any PersistentStore, names: [String]) throws {
        func wrong(_ reason: String) -> ManagedObjectContextError {
            .invalidStoreAnswer(store: Self.storeName(store), reason: reason)
        }
        if let count = result.count, count < 0 { throw wrong("a fetch counted \(count) objects") }
        let wanted = names.count == 1 ? nil : Set(names)
        // Asked once: a store's identifier may take a lock and copy a string.
        let storeIdentifier = store.identifier
        func check(_ id: ManagedObjectID) throws {
            let asked = wanted?.contains(id.entityName) ?? (id.entityName == names.first)
            guard asked else {
                throw wrong("a fetch of \(names.joined(separator: ", ")) returned \(id), an object of the entity \(id.entityName)")
            }
            guard id.storeIdentifier == storeIdentifier else { throw wrong("a fetch returned \(id), an object of another store") }
        }
        // By index: a `for row in` loop copies each row (a retain per value it holds). A row
        // whose ID shares the last checked ID's scope (entity and store: a store's rows of one
        // entity usually do) passes as that one did, without comparing names again.
        var checked: ManagedObjectID?
        for index in result.rows.indices {
            if let checked, result.rows[index].objectID.sharesScope(with: checked) { continue }
            try check(result.rows[index].objectID)
            checked = result.rows[index].objectID
        }
        for id in result.objectIDs {
            if let checked, id.sharesScope(with: checked) { continue }
            try check(id)
            checked = id
        }
        if !result.objectVersions.isEmpty && result.objectVersions.count != result.objectIDs.count {
            throw wrong("a fetch returned \(result.objectIDs.count) object IDs with \(result.objectVersions.count) versions")
        }
    }
}
