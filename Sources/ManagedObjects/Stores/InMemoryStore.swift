// The in-memory store: rows in a dictionary, for the life of the process.
import Foundation
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
    }
    private let state = Mutex(State())

    /// Creates an empty store.
    ///
    /// - Parameter identifier: The store's UUID string (default: a new one).
    public init(identifier: String = UUID().uuidString) {
        self.identifier = identifier
    }

    public var metadata: [String: any Sendable] { state.withLock { $0.metadata } }

    public func load(for model: ManagedObjectModel) throws {
        let hashes = model.entityVersionHashesByName
        var roots: [String: String] = [:]
        for entity in model.entities {
            var root = entity
            while let parent = root.parentName, let next = model.entity(named: parent) { root = next }
            roots[entity.name] = root.name
        }
        var tables: [String: InMemoryRecordTable] = [:]
        for entity in model.entities where !entity.isAbstract { tables[entity.name] = InMemoryRecordTable.table(for: entity) }
        let identifier = self.identifier
        state.withLock { state in
            state.roots = roots
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
        // Copies of the entities' rows (copy on write: O(1) each, after the columns of rows
        // saved since the last fetch are built), read outside the lock.
        let rows = state.withLock { state in state.rows.rows(ofEntitiesNamed: request.entityNames) }
        return Self.answer(request, from: rows)
    }

    public func row(for id: ManagedObjectID) throws -> StoreRow? {
        state.withLock { $0.rows[id] }
    }

    public func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        let identifier = self.identifier
        return state.withLock { state in
            entityNames.map { name in
                let root = state.roots[name] ?? name
                let key = state.nextKey[root, default: 0] + 1
                state.nextKey[root] = key
                return ManagedObjectID(entityName: name, storeIdentifier: identifier, primaryKey: key)
            }
        }
    }

    public func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] {
        try state.withLock { state throws -> [ManagedObjectID: Int64] in
            var conflicts: [StoreConflict] = []
            for row in changes.updated {
                let current = state.rows[row.objectID]?.version ?? 0
                if current != row.version {
                    conflicts.append(StoreConflict(objectID: row.objectID, expectedVersion: row.version, storeVersion: current))
                }
            }
            for (id, version) in changes.deleted {
                let current = state.rows[id]?.version ?? 0
                if current != version {
                    conflicts.append(StoreConflict(objectID: id, expectedVersion: version, storeVersion: current))
                }
            }
            guard conflicts.isEmpty else { throw StoreSaveError.conflicts(conflicts) }
            for row in changes.inserted where state.rows[row.objectID] != nil || row.objectID.storeIdentifier != identifier {
                throw StoreSaveError.invalidObject(row.objectID, reason: "it already exists or belongs to another store")
            }
            var versions: [ManagedObjectID: Int64] = [:]
            versions.reserveCapacity(changes.inserted.count + changes.updated.count)
            for var row in changes.inserted {
                row.version = 1
                versions[row.objectID] = 1
                state.rows.set(row, table: state.table(of: row))
            }
            for var row in changes.updated {
                row.version += 1
                versions[row.objectID] = row.version
                state.rows.set(row, table: state.table(of: row))
            }
            for (id, _) in changes.deleted { state.rows.remove(id) }
            return versions
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

    /// Removes the row of `id`, if stored.
    mutating func remove(_ id: ManagedObjectID) {
        byEntity[id.entityName]?.remove(id)
    }

    /// The rows of the entities named (each name once), their columns brought up to date.
    mutating func rows(ofEntitiesNamed names: [String]) -> [InMemoryEntityRows] {
        Set(names).compactMap { name -> InMemoryEntityRows? in
            byEntity[name]?.buildColumns()
            return byEntity[name]
        }
    }
}
