// The in-memory store: rows in a dictionary, for the life of the process.
import Foundation
import ObjectGraphInternals
import Predicates
import Synchronization

/// A store that keeps its rows in memory (Apple: `NSInMemoryStoreType`). Saves are atomic and
/// versioned like any store's; nothing survives the process.
///
/// A fetch applies the request's predicate, order, offset and limit to the rows when they read
/// only the entity's own saved attributes (of value types: numbers, strings, dates, data, UUIDs,
/// URLs), so that only the matching rows become managed objects; anything else (key paths
/// through relationships, `SELF`, subqueries, blocks) is left to the context, which evaluates
/// it over the objects with the same result.
///
/// Primary keys are counted per inheritance root, as Core Data's SQLite store does: a
/// `SportCar` and a `Car` never share a key.
///
/// - Important: Thread safety: `Sendable`; every operation takes the store's lock.
public final class InMemoryStore: PersistentStore {
    /// `"InMemory"`, Apple's `NSInMemoryStoreType`.
    public static let type = "InMemory"

    public let identifier: String
    public var storeType: String { Self.type }

    fileprivate struct State {
        var rows = RowsByEntity()
        var nextKey: [String: Int64] = [:]
        var roots: [String: String] = [:]
        var tables: [String: InMemoryRecordTable] = [:]
        var metadata: [String: any Sendable] = [:]
        /// The model's uniqueness constraints: the entity names each holds for, and its
        /// properties.
        var constraints: [(scope: Set<String>, properties: [String])] = []
    }
    private let state = Mutex(State())

    /// Creates an empty store.
    ///
    /// - Parameter identifier: The store's UUID string (default: a new one).
    public init(identifier: String = UUID().uuidString) {
        self.identifier = identifier
    }

    public var metadata: [String: any Sendable] { state.withTrackedLock(self) { $0.metadata } }

    public func load(for model: ManagedObjectModel) throws {
        let hashes = model.entityVersionHashesByName
        var roots: [String: String] = [:]
        for entity in model.entities { roots[entity.name] = model.rootEntity(of: entity).name }
        var constraints: [(scope: Set<String>, properties: [String])] = []
        for entity in model.entities {
            for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
                var scope: Set<String> = []
                for candidate in model.entities {
                    var next: EntityDescription? = candidate
                    while let current = next, current.name != entity.name { next = current.parentName.flatMap(model.entity(named:)) }
                    if next != nil { scope.insert(candidate.name) }
                }
                constraints.append((scope, constraint))
            }
        }
        let identifier = self.identifier
        var tables: [String: InMemoryRecordTable] = [:]
        for entity in model.entities where !entity.isAbstract { tables[entity.name] = InMemoryRecordTable.table(for: entity) }
        state.withTrackedLock(self) { state in
            state.roots = roots
            state.constraints = constraints
            state.tables = tables
            state.metadata = [
                "NSStoreType": Self.type,
                "NSStoreUUID": identifier,
                StoreMetadataKey.modelVersionHashes: hashes,
                StoreMetadataKey.modelVersionHashesVersion: StoreMetadataKey.currentModelVersionHashesVersion,
                StoreMetadataKey.modelVersionIdentifiers: Array(model.versionIdentifiers).sorted(),
            ]
        }
    }

    public func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        Self.answer(request, from: rowsForFetch(request))
    }

    /// Copies of the rows of a request's entities (copy on write: O(1) each, after the columns
    /// of rows saved since the last fetch are built), to be read outside the lock.
    func rowsForFetch(_ request: StoreFetchRequest) -> [InMemoryEntityRows] {
        state.withTrackedLock(self) { state in state.rows.rows(ofEntitiesNamed: request.entityNames) }
    }

    public func row(for id: ManagedObjectID) throws -> StoreRow? {
        state.withTrackedLock(self) { $0.rows[id] }
    }

    public func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        let identifier = self.identifier
        return state.withTrackedLock(self) { state in
            var ids: [ManagedObjectID] = []
            ids.reserveCapacity(entityNames.count)
            // Names come in runs of one entity (a save's objects are in insert order): the root
            // and its counter are looked up once per run.
            var start = entityNames.startIndex
            while start < entityNames.endIndex {
                let name = entityNames[start]
                var end = start + 1
                while end < entityNames.endIndex && entityNames[end] == name { end += 1 }
                Self.appendNewIDs(count: end - start, of: name, store: identifier, to: &ids, in: &state)
                start = end
            }
            return ids
        }
    }

    /// ``newObjectIDs(for:)`` of `count` new objects of one entity (the usual save's new
    /// objects): no list of their names made, none compared.
    package func newObjectIDs(count: Int, of entityName: String) -> [ManagedObjectID] {
        let identifier = self.identifier
        return state.withTrackedLock(self) { state in
            var ids: [ManagedObjectID] = []
            ids.reserveCapacity(count)
            Self.appendNewIDs(count: count, of: entityName, store: identifier, to: &ids, in: &state)
            return ids
        }
    }

    /// Appends the IDs of `count` new objects of `name`, from its inheritance root's counter;
    /// they share the first one's scope (the same IDs as made one by one).
    private static func appendNewIDs(count: Int, of name: String, store identifier: String, to ids: inout [ManagedObjectID],
                                     in state: inout State) {
        guard count > 0 else { return }
        let root = state.roots[name] ?? name
        var key = state.nextKey[root, default: 0]
        let first = ManagedObjectID(entityName: name, storeIdentifier: identifier, primaryKey: key + 1)
        for _ in 0..<count {
            key += 1
            ids.append(first.withPrimaryKey(key))
        }
        state.nextKey[root] = key
    }

    public func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] {
        try saveReportingVersions(changes).dictionary(for: changes)
    }
}

extension InMemoryStore: UniformInsertVersionStore {
    /// ``save(_:)``, with the versions of the new rows as one number (every new row gets 1) and
    /// those of the updated rows implied (each one more than the row's).
    package func saveReportingVersions(_ changes: StoreSaveChanges) throws -> SavedRowVersions {
        // The sharing save on a copy of the changes: the caller's rows stay as they were (a
        // version written into the shared array copies it first).
        var changes = changes
        return try saveReportingVersions(sharingInserted: &changes)
    }

    /// ``saveReportingVersions(_:)`` keeping the new rows' array itself where it can: new rows
    /// of one entity that has no rows yet, with rising integer keys (the first save of a
    /// batch of new objects). Their versions are set in `changes` (in place: the array is the
    /// caller's alone) before the store takes the array, which the caller's row cache then
    /// shares: no row is copied, and the rows are freed once.
    package func saveReportingVersions(sharingInserted changes: inout StoreSaveChanges) throws -> SavedRowVersions {
        try state.withTrackedLock(self) { state throws -> SavedRowVersions in
            try check(changes, in: state)
            let tables = state.tables
            if state.rows.canAdopt(changes.inserted) {
                for index in changes.inserted.indices where changes.inserted[index].version != 1 {
                    changes.inserted[index].version = 1
                }
                state.rows.adopt(changes.inserted) { tables[$0.objectID.entityName] ?? InMemoryRecordTable.empty }
            } else {
                state.rows.add(changes.inserted, version: 1) { tables[$0.objectID.entityName] ?? InMemoryRecordTable.empty }
            }
            return Self.write(changes, to: &state)
        }
    }

    /// Throws what a save of `changes` meets: a conflict, a new row stored already or of
    /// another store, a uniqueness constraint broken.
    private func check(_ changes: StoreSaveChanges, in state: State) throws {
        let conflicts = changes.conflicts { state.rows[$0]?.version }
        guard conflicts.isEmpty else { throw StoreSaveError.conflicts(conflicts) }
        if let row = state.rows.firstStoredOrForeign(among: changes.inserted, storeIdentifier: identifier) {
            throw StoreSaveError.invalidObject(row.objectID, reason: "it already exists or belongs to another store")
        }
        try Self.checkUniqueness(of: changes, in: state)
    }

    /// Writes the updated and deleted rows of a checked save whose new rows are stored.
    private static func write(_ changes: StoreSaveChanges, to state: inout State) -> SavedRowVersions {
        for var row in changes.updated {
            // Each updated row's new version is its version plus one (reported as such).
            row.version += 1
            // Relationships the row leaves out (never loaded) keep their stored members.
            if let stored = state.rows[row.objectID] {
                for (name, ids) in stored.relationships where row.relationships[name] == nil { row.relationships[name] = ids }
            }
            state.rows.set(row, table: state.table(of: row))
        }
        for (id, _) in changes.deleted { state.rows.remove(id) }
        return SavedRowVersions(inserted: 1, updated: nil)
    }
}

extension InMemoryStore {
    /// Throws ``StoreSaveError/uniquenessConstraint(_:properties:)`` when, after the save, two
    /// rows of a constraint's entities would have the same values for it (rows with a `nil`
    /// value among them never conflict).
    private static func checkUniqueness(of changes: StoreSaveChanges, in state: State) throws {
        guard !state.constraints.isEmpty else { return }
        let written = changes.inserted + changes.updated
        let writtenNames = Set(written.map(\.objectID.entityName))
        var replaced = Set(changes.updated.map(\.objectID))
        for (id, _) in changes.deleted { replaced.insert(id) }
        for (scope, properties) in state.constraints where !scope.isDisjoint(with: writtenNames) {
            var seen: [[KeyValueConstant]: ManagedObjectID] = [:]
            func check(_ row: StoreRow) throws {
                var values: [KeyValueConstant] = []
                for name in properties {
                    if let value = row.attributeValue(named: name) {
                        if case .null = value { return }
                        values.append(value)
                    } else if let id = row.relationships[name]?.first {
                        values.append(KeyValueConstant(id))
                    } else {
                        return
                    }
                }
                if seen.updateValue(row.objectID, forKey: values) != nil {
                    throw StoreSaveError.uniquenessConstraint(row.objectID, properties: properties)
                }
            }
            for row in state.rows.storedRows(ofEntitiesNamed: scope) where !replaced.contains(row.objectID) { try check(row) }
            for row in written where scope.contains(row.objectID.entityName) { try check(row) }
        }
    }
}

fileprivate extension InMemoryStore.State {
    /// The columns of a row's entity. A row of an entity the model does not have (a store
    /// shared with another model) gets none: its attributes are then read by the context only.
    func table(of row: StoreRow) -> InMemoryRecordTable {
        tables[row.objectID.entityName] ?? InMemoryRecordTable.empty
    }
}

/// The rows of an in-memory store, grouped by entity, so that a fetch reads the rows of its
/// entities only (no test of every row's entity name).
private struct RowsByEntity {
    private var byEntity: [String: InMemoryEntityRows] = [:]

    /// The row of `id`, if stored.
    subscript(id: ManagedObjectID) -> StoreRow? {
        byEntity[id.entityName]?.row(for: id)
    }

    /// Adds or replaces a row.
    mutating func set(_ row: StoreRow, table: InMemoryRecordTable) {
        byEntity[row.objectID.entityName, default: InMemoryEntityRows(table: table)].set(row)
    }

    /// The first of `rows` (in order) whose ID is stored already or is of another store than
    /// `storeIdentifier`; `nil` when there is none. Runs of one entity find its rows once.
    func firstStoredOrForeign(among rows: [StoreRow], storeIdentifier: String) -> StoreRow? {
        var runName: String?
        var runRows: InMemoryEntityRows?
        for row in rows {
            if row.objectID.storeIdentifier != storeIdentifier { return row }
            let name = row.objectID.entityName
            if name != runName {
                runName = name
                runRows = byEntity[name]
            }
            if runRows?.contains(row.objectID) == true { return row }
        }
        return nil
    }

    /// Adds or replaces `rows`, each with version `version`. Runs of one entity (a save's new
    /// rows come in insert order) are added to its rows at once; `table` gives the columns of
    /// an entity met for the first time.
    mutating func add(_ rows: [StoreRow], version: Int64, table: (StoreRow) -> InMemoryRecordTable) {
        var start = rows.startIndex
        while start < rows.endIndex {
            let name = rows[start].objectID.entityName
            var end = start + 1
            while end < rows.endIndex && rows[end].objectID.entityName == name { end += 1 }
            // Taken out while it grows: uniquely referenced, so changed in place.
            var entityRows = byEntity.removeValue(forKey: name) ?? InMemoryEntityRows(table: table(rows[start]))
            entityRows.reserveCapacity(entityRows.rows.count + (end - start))
            // Each row copied once, out of `rows`, then moved into the entity's rows.
            for var row in rows[start..<end] {
                row.version = version
                entityRows.set(consume row)
            }
            byEntity[name] = entityRows
            start = end
        }
    }

    /// Whether ``adopt(_:table:)`` can take `rows`: two or more rows of one entity that has no
    /// rows yet, with integer keys that rise (then none is stored twice).
    func canAdopt(_ rows: [StoreRow]) -> Bool {
        guard rows.count > 1, byEntity[rows[0].objectID.entityName]?.rows.isEmpty ?? true else { return false }
        var last = Int64.min
        var checked = rows[0].objectID
        for index in rows.indices {
            // A row sharing the last checked row's scope has its entity (no name compared).
            if !rows[index].objectID.sharesScope(with: checked) {
                guard rows[index].objectID.entityName == checked.entityName else { return false }
                checked = rows[index].objectID
            }
            guard case .integer(let key) = rows[index].objectID.referenceObject, key > last else { return false }
            last = key
        }
        return true
    }

    /// Makes `rows` (``canAdopt(_:)``) their entity's rows, their array shared rather than
    /// each row copied; `table` gives the entity's columns.
    mutating func adopt(_ rows: [StoreRow], table: (StoreRow) -> InMemoryRecordTable) {
        let name = rows[0].objectID.entityName
        var entityRows = byEntity.removeValue(forKey: name) ?? InMemoryEntityRows(table: table(rows[0]))
        entityRows.adopt(rows)
        byEntity[name] = entityRows
    }

    /// Removes the row of `id`, if stored.
    mutating func remove(_ id: ManagedObjectID) {
        byEntity[id.entityName]?.remove(id)
    }

    /// The rows of the entities named, without bringing columns up to date.
    func storedRows(ofEntitiesNamed names: Set<String>) -> [StoreRow] {
        names.flatMap { byEntity[$0].map { Array($0.rows) } ?? [] }
    }

    /// The rows of the entities named (each name once), their columns brought up to date.
    mutating func rows(ofEntitiesNamed names: [String]) -> [InMemoryEntityRows] {
        Set(names).compactMap { name -> InMemoryEntityRows? in
            byEntity[name]?.buildColumns()
            return byEntity[name]
        }
    }
}
