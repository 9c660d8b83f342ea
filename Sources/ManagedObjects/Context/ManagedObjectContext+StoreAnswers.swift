// The context's checks of what a store (possibly a user's own) answers.
import Foundation
import Predicates

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
        return try checked(try store.newObjectIDs(for: entityNames), from: store, for: entityNames, checkingRegistry: checkingRegistry)
    }

    /// ``checkedNewObjectIDs(from:for:checkingRegistry:)`` of `count` new objects of one
    /// entity: an in-memory store is asked for them without a list of their names (the same
    /// IDs), any other store as usual; the same checks either way.
    package func checkedNewObjectIDs(from store: any PersistentStore, count: Int, of entityName: String) throws -> [ManagedObjectID] {
        guard let memory = store as? InMemoryStore else {
            return try checkedNewObjectIDs(from: store, for: [String](repeating: entityName, count: count))
        }
        prepareUnindexedInsertsForSave()
        return try checked(memory.newObjectIDs(count: count, of: entityName), from: store,
                           for: repeatElement(entityName, count: count), checkingRegistry: true)
    }

    /// The checks of ``checkedNewObjectIDs(from:for:checkingRegistry:)`` of `ids`, the store's
    /// answer for new objects of `entityNames` (an array, or one name repeated).
    private func checked<Names: RandomAccessCollection<String>>(_ ids: [ManagedObjectID], from store: any PersistentStore,
                                                                 for entityNames: Names, checkingRegistry: Bool) throws -> [ManagedObjectID]
        where Names.Index == Int {
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
        // The registry holds no permanent ID when empty (no look-up per ID then).
        let checksRegistry = checkingRegistry && !registeredByID.isEmpty
        // An ID sharing the scope of the last ID checked (a store makes an entity's IDs from
        // one template) has its entity, store and kind of key: it passes those checks when
        // the name asked is the same.
        var lastChecked: (id: ManagedObjectID, name: String)?
        for index in ids.indices {
            let name = entityNames[entityNames.startIndex + index]
            let passes = lastChecked.map { ids[index].sharesScope(with: $0.id) && name == $0.name } ?? false
            if !passes {
                let id = ids[index]
                guard !id.isTemporaryID else { throw wrong("newObjectIDs(for:) gave the temporary ID \(id)") }
                guard id.entityName == name else { throw wrong("newObjectIDs(for:) gave \(id) for a new \(name)") }
                guard id.storeIdentifier == identifier else {
                    throw wrong("newObjectIDs(for:) gave \(id), an ID of another store")
                }
                lastChecked = (id, name)
            }
            guard rising || seen.insert(ids[index]).inserted, !checksRegistry || registeredByID[ids[index]] == nil else {
                throw wrong("newObjectIDs(for:) gave \(ids[index]), which already names an object")
            }
        }
        return ids
    }

    /// Whether every ID has an integer key greater than that of every earlier ID of its entity
    /// (then no two are equal). Runs of one entity look its last key up once.
    /// The IDs are read through the array's storage and their keys from their scopes' flags
    /// (``ManagedObjectID/integerKey``): no copy of an ID, no reference made, per ID.
    private static func keysRiseByEntity(_ ids: [ManagedObjectID]) -> Bool {
        ids.withUnsafeBufferPointer { ids in
            var lastKeys: [String: Int64] = [:]
            var runName: String?
            var runLast = Int64.min
            for index in ids.indices {
                guard let key = ids[index].integerKey else { return false }
                // An ID sharing the previous one's scope is of its entity: the run goes on.
                let continuesRun = index > 0 && ids[index].sharesScope(with: ids[index - 1])
                if !continuesRun && ids[index].entityName != runName {
                    if let runName { lastKeys[runName] = runLast }
                    runName = ids[index].entityName
                    runLast = lastKeys[ids[index].entityName] ?? .min
                }
                guard key > runLast else { return false }
                runLast = key
            }
            return true
        }
    }

    /// `counted` plus a store's `count`; a sum past `Int.max` (more objects than any stores
    /// could hold) is the store's wrong answer, not a trap.
    ///
    /// - Throws: ``ManagedObjectContextError/invalidStoreAnswer(store:reason:)`` naming the store.
    package static func adding(count: Int, to counted: Int, of store: any PersistentStore) throws -> Int {
        let (sum, overflow) = counted.addingReportingOverflow(count)
        guard !overflow else {
            throw ManagedObjectContextError.invalidStoreAnswer(
                store: storeName(store), reason: "a fetch counted \(count) objects, more than a count can hold with \(counted) others")
        }
        return sum
    }

    /// Checks a store's fetch answer: every row and ID is of one of the entities asked for
    /// (`names`: the request's entity and, when asked, its subentities) and of that store, and a
    /// count is not negative nor, when the store applied the request's limit (`fetchLimit`,
    /// 0: none), more than that limit. Repeated rows of one ID are allowed: the first one wins.
    /// The rows of a store other than this package's own are checked as ``checkRows(_:of:)``
    /// does.
    ///
    /// - Throws: ``ManagedObjectContextError/invalidStoreAnswer(store:reason:)`` naming the store
    ///   and the entity.
    /// - Complexity: O(*n*) in the number of rows and IDs.
    package func checkFetchAnswer(_ result: StoreFetchResult, of store: any PersistentStore, names: [String],
                                  fetchLimit: Int = 0) throws {
        func wrong(_ reason: String) -> ManagedObjectContextError {
            .invalidStoreAnswer(store: Self.storeName(store), reason: reason)
        }
        if let count = result.count {
            if count < 0 { throw wrong("a fetch counted \(count) objects") }
            if fetchLimit > 0 && result.appliedOrderAndLimits && count > fetchLimit {
                throw wrong("a fetch limited to \(fetchLimit) objects counted \(count)")
            }
        }
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
        // The values of a user's store's rows (this package's stores make theirs right).
        guard !(store is any TrustedRowStore) else { return }
        if let version = result.objectVersions.first(where: { $0 < 0 }) {
            throw wrong("a fetch returned the negative version \(version)")
        }
        try checkUntrustedRows(result.rows, of: store)
    }
}

/// A store of this package whose rows are right by construction: values of their attributes'
/// types (written from the model's values, or checked when its file loads), relationship IDs of
/// its own objects, at most one on a to-one, versions not negative. A context does not check
/// its rows again; a user's store is not one, and its rows are checked
/// (``ManagedObjectContext/checkRows(_:of:)``).
package protocol TrustedRowStore: PersistentStore {}

extension InMemoryStore: TrustedRowStore {}
extension AtomicFileStore: TrustedRowStore {}

extension ManagedObjectContext {
    /// Checks the rows a store other than this package's own answered (nothing for a
    /// ``TrustedRowStore``): each version is not negative, each attribute value fits its
    /// attribute's type (a string for a `Double`, a number beyond `Int64`, an array for a
    /// `String` would read as `nil`), a to-one holds at most one object, and every related ID
    /// is of this store.
    ///
    /// - Throws: ``ManagedObjectContextError/invalidStoreAnswer(store:reason:)`` naming the
    ///   store, the object, the entity and key, and the value.
    /// - Complexity: O(*n*) in the rows' values and related IDs; one dynamic cast for a
    ///   trusted store.
    package func checkRows<Rows: Collection<StoreRow>>(_ rows: Rows, of store: any PersistentStore) throws {
        guard !(store is any TrustedRowStore) else { return }
        try checkUntrustedRows(rows, of: store)
    }

    /// ``checkRows(_:of:)`` for a store known not to be a ``TrustedRowStore``.
    private func checkUntrustedRows<Rows: Collection<StoreRow>>(_ rows: Rows, of store: any PersistentStore) throws {
        guard !rows.isEmpty else { return }
        let storeIdentifier = store.identifier
        var entityName: String?
        var entity: EntityDescription?
        var attributes: [String: AttributeDescription] = [:]
        var relationships: [String: RelationshipDescription] = [:]
        for row in rows {
            let id = row.objectID
            func wrong(_ reason: String) -> ManagedObjectContextError {
                .invalidStoreAnswer(store: Self.storeName(store), reason: "the row of \(id) \(reason)")
            }
            guard row.version >= 0 else { throw wrong("has the negative version \(row.version)") }
            if id.entityName != entityName {
                entityName = id.entityName
                entity = model.entity(named: id.entityName)
                attributes = entity?.attributesByName ?? [:]
                relationships = entity?.relationshipsByName ?? [:]
            }
            guard let entity else { continue }   // an unknown entity is refused where it is used
            for (key, value) in row.attributes where value != .null {
                guard let attribute = attributes[key], attribute.typedValue(from: value) == nil else { continue }
                throw wrong("holds \(Self.describe(value)) for \(entity.name).\(key), an attribute of type \(attribute.attributeType.rawValue)")
            }
            for (key, members) in row.relationships {
                guard let relationship = relationships[key] else { continue }
                if relationship.cardinality == .toOne && members.count > 1 {
                    throw wrong("holds \(members.count) objects for the to-one relationship \(entity.name).\(key)")
                }
                for member in members where member.storeIdentifier != storeIdentifier {
                    throw wrong("holds \(member), an object of another store, for the relationship \(entity.name).\(key)")
                }
            }
        }
    }

    /// Checks the members a store other than this package's own gave for the relationship
    /// `name` of `id`: at most one for a to-one, each of this store.
    ///
    /// - Throws: ``ManagedObjectContextError/invalidStoreAnswer(store:reason:)``.
    package func checkRelationshipMembers(_ members: [ManagedObjectID], of id: ManagedObjectID, relationship name: String,
                                          store: any PersistentStore) throws {
        guard !(store is any TrustedRowStore), !members.isEmpty else { return }
        func wrong(_ reason: String) -> ManagedObjectContextError {
            .invalidStoreAnswer(store: Self.storeName(store), reason: "objectIDs(forRelationship: \"\(name)\", of: \(id)) \(reason)")
        }
        if members.count > 1, model.entity(named: id.entityName)?.relationshipsByName[name]?.cardinality == .toOne {
            throw wrong("gave \(members.count) objects for a to-one relationship")
        }
        let storeIdentifier = store.identifier
        for member in members where member.storeIdentifier != storeIdentifier {
            throw wrong("gave \(member), an object of another store")
        }
    }

    /// A value for an error message: its kind and (shortened) contents in the predicate
    /// format, such as `string "x"`, `unsignedInteger 18446744073709551615` or `array {"a"}`.
    private static func describe(_ value: KeyValueConstant) -> String {
        let kind = Mirror(reflecting: value).children.first?.label ?? "value"
        let text = "\(kind) \(KeyValueExpression.constant(value))"
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}

extension ManagedObjectContext {
    /// Checks the row a store other than this package's own gave for `id`: the row of that
    /// object, with right values (``checkRows(_:of:)``).
    ///
    /// - Throws: ``ManagedObjectContextError/invalidStoreAnswer(store:reason:)``.
    package func checkRow(_ row: StoreRow, for id: ManagedObjectID, of store: any PersistentStore) throws {
        guard !(store is any TrustedRowStore) else { return }
        guard row.objectID == id else {
            throw ManagedObjectContextError.invalidStoreAnswer(store: Self.storeName(store), reason: "row(for: \(id)) gave the row of \(row.objectID)")
        }
        try checkUntrustedRows(CollectionOfOne(row), of: store)
    }
}
