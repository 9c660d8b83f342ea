// The SQLite store: Core Data's on-disk layout, behind the store interface.
import Foundation
import ManagedObjects
import ObjectGraphInternals
import Synchronization

/// A store that keeps its objects in an SQLite file in Core Data's layout (Apple:
/// `NSSQLiteStoreType`): files written by Apple's Core Data open with the model that wrote
/// them, and files it writes have the tables, columns and metadata Core Data expects
/// (Docs/SQLiteStore.md lists the layout).
///
/// ```swift
/// let coordinator = PersistentStoreCoordinator(model: model)
/// try coordinator.addStore(SQLitePersistentStore(url: URL(fileURLWithPath: "Library.sqlite")))
/// let context = ManagedObjectContext(coordinator: coordinator)
/// ```
///
/// Adding the store to a coordinator loads it: a missing file is created with the model's
/// tables; an existing one is opened only when its metadata's version hashes match the
/// model's. Each save is one SQLite transaction, checked row by row against the version
/// (`Z_OPT`) the context last read: another coordinator's save in between is reported as
/// ``StoreSaveError/conflicts(_:)`` and nothing is written.
///
/// - Important: Thread safety: `Sendable`. One SQLite connection per store, used under the
///   store's lock; several stores (in one process or several) may open the same file.
public final class SQLitePersistentStore: PersistentStore {
    /// `"SQLite"`, Apple's `NSSQLiteStoreType` and the `NSStoreType` of the metadata.
    public static let type = SQLiteStoreMetadata.storeType

    /// The store file.
    public let url: URL

    struct State {
        var identifier: String
        var engine: SQLiteStoreEngine?
        /// The history tables, once loaded with ``tracksPersistentHistory``.
        var history: SQLiteHistoryLayout?
    }
    /// Taken with `withTrackedLock`: the thread sanitizer cannot see `Mutex`.
    let state: Mutex<State>
    /// The coordinator's remote-change handler, the watcher of other processes' commits, and
    /// the newest transaction announced (SQLitePersistentStore+History.swift).
    let remoteChanges = Mutex(RemoteChangeState())

    /// Whether fetches apply their predicates in SQL (see ``init(url:evaluatesPredicatesInSQL:)``).
    public let evaluatesPredicatesInSQL: Bool
    /// Whether every save records a transaction in the file's persistent history (Apple:
    /// `NSPersistentHistoryTrackingKey`); see ``PersistentHistoryStore``.
    public let tracksPersistentHistory: Bool
    /// Whether the store reports its own and other processes' transactions to its coordinator,
    /// which posts ``PersistentStoreCoordinator/remoteChangeNotification`` (Apple:
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`).
    public let postsRemoteChangeNotifications: Bool
    /// How often the store checks the file for transactions of other processes while it posts
    /// remote changes (the longest delay before a remote change is noticed).
    public let remoteChangeCheckInterval: Duration

    /// Creates a store for a file; nothing is read or written until it is loaded (added to a
    /// coordinator).
    ///
    /// - Parameters:
    ///   - url: A file URL. A missing file is created when the store loads.
    ///   - evaluatesPredicatesInSQL: Whether fetches compile predicates, sort descriptors and
    ///     limits to SQL where SQL decides them exactly as the in-memory evaluation (the
    ///     default; Docs/SQLiteStore.md lists what is compiled). With `false` every row of
    ///     the requested entities is read and the context filters, sorts and limits.
    ///   - tracksPersistentHistory: Whether saves record persistent history in the file's
    ///     `ATRANSACTION`/`ACHANGE` tables (created when the store loads); default `false`.
    ///   - postsRemoteChangeNotifications: Whether the coordinator posts a remote-change
    ///     notification for every transaction, this process's and others'; default `false`.
    ///   - remoteChangeCheckInterval: How often the file is checked for other processes'
    ///     transactions while remote changes are posted (one `PRAGMA data_version` per check);
    ///     default 50 milliseconds.
    public init(url: URL, evaluatesPredicatesInSQL: Bool = true, tracksPersistentHistory: Bool = false,
                postsRemoteChangeNotifications: Bool = false, remoteChangeCheckInterval: Duration = .milliseconds(50)) {
        self.url = url
        self.evaluatesPredicatesInSQL = evaluatesPredicatesInSQL
        self.tracksPersistentHistory = tracksPersistentHistory
        self.postsRemoteChangeNotifications = postsRemoteChangeNotifications
        self.remoteChangeCheckInterval = remoteChangeCheckInterval
        state = Mutex(State(identifier: UUID().uuidString))
        _ = Self.typeRegistration
    }

    /// The store's UUID: the `Z_UUID` of an existing file after loading, otherwise the UUID a
    /// new file gets.
    public var identifier: String { state.withTrackedLock(self) { $0.identifier } }

    /// `"SQLite"`.
    public var storeType: String { Self.type }

    /// The metadata: the keys of `Z_METADATA`'s property list (app keys included) and
    /// `NSStoreUUID`. Empty before loading.
    public var metadata: [String: any Sendable] { state.withTrackedLock(self) { $0.engine?.metadata ?? [:] } }

    /// Runs `body` with the loaded engine under the store's lock.
    func withEngine<Result>(_ body: (inout SQLiteStoreEngine) throws -> Result) throws -> Result {
        let path = url.path
        return try state.withTrackedLock(self) { state throws -> Result in
            // Taken out (not copied), so that changing its row cache does not copy the cache.
            guard var engine = state.engine.take() else { throw SQLiteStoreError(.notLoaded, path: path) }
            defer { state.engine = engine }
            return try body(&engine)
        }
    }

    /// The rows of the request's entities (Apple: `execute(_:with:)` for a fetch).
    ///
    /// With ``evaluatesPredicatesInSQL``, the predicate becomes an SQL condition (exact, or a
    /// narrowing when part of it cannot be compiled; `appliedPredicate` says which), and for a
    /// fetch of one entity with an exact predicate the sort descriptors, offset and limit
    /// become `ORDER BY`/`LIMIT` (`appliedOrderAndLimits`). A `resultType` of `.objectIDs` or
    /// `.count` is answered without rows when the predicate is exact, and so is a fetch of
    /// faults (``StoreFetchRequest/includesPropertyValues`` `false`: each ID with its row's
    /// `Z_OPT`, nothing else read). To-many relationships are
    /// left out of the rows: they become relationship faults, read by
    /// ``objectIDs(forRelationship:of:)`` on first access.
    ///
    /// - Parameter request: The entities, predicate, order, limits and result type.
    /// - Returns: The rows (by entity, then in the requested order or by primary key), IDs or
    ///   count.
    /// - Throws: ``SQLiteStoreError`` (not loaded, SQLite's errors, a transformer failing,
    ///   ``SQLiteStoreError/Code/unknownEntityNumber(table:number:)`` for rows of an entity the
    ///   model does not have: met by the query in a table whose root has no subentities, found
    ///   anywhere in the table otherwise).
    /// - Complexity: One query per entity.
    /// - Important: Thread safety: safe from any thread (the store's lock).
    public func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        try withEngine { engine in
            try engine.checkEntityNumbers(inTablesOf: request.entityNames, queriesGuarded: true)
            let selection = try engine.rows(for: request, compilesPredicate: evaluatesPredicatesInSQL)
            var result = StoreFetchResult(rows: selection.rows, appliedPredicate: selection.isExact,
                                          appliedOrderAndLimits: selection.isOrdered)
            // One query per entity, each row by its own key of the entity's table.
            result.rowsNameEachObjectOnce = true
            if let ids = selection.objectIDs {
                result.objectIDs = ids
                result.objectVersions = selection.objectVersions
            } else if let count = selection.count {
                result.count = count
            }
            return result
        }
    }

    /// The current row of an object, or `nil` when the store has no such object or the ID is
    /// another store's (Apple: `newValuesForObject(with:with:)`).
    ///
    /// - Parameter id: A permanent ID.
    /// - Returns: The row with its version (`Z_OPT`), attributes and to-one relationships.
    /// - Throws: ``SQLiteStoreError``, among them
    ///   ``SQLiteStoreError/Code/unknownEntityNumber(table:number:)`` when the row of `id` is
    ///   of an entity the model does not have (in a table whose root has subentities, when any
    ///   row of the table is).
    public func row(for id: ManagedObjectID) throws -> StoreRow? {
        try withEngine { engine in
            try engine.checkEntityNumbers(inTablesOf: CollectionOfOne(id.entityName), queriesGuarded: true)
            return try engine.cachedRows(for: [id]).first
        }
    }

    /// The current rows of several objects, from the row cache shared by the coordinator's
    /// contexts or read in one query per entity (Apple: a batch of faults filled at once).
    ///
    /// - Parameter ids: Permanent IDs; IDs the store does not have are left out.
    /// - Returns: The rows found, in any order.
    /// - Throws: ``SQLiteStoreError``.
    /// - Complexity: One query per entity, for the rows not in the cache.
    public func rows(for ids: [ManagedObjectID]) throws -> [StoreRow] {
        try withEngine { engine in
            try engine.checkEntityNumbers(inTablesOf: Set(ids.map(\.entityName)), queriesGuarded: true)
            return try engine.cachedRows(for: ids)
        }
    }

    /// New permanent IDs, keys taken from each inheritance root's `Z_PRIMARYKEY.Z_MAX` in one
    /// transaction, so that stores sharing the file never hand out one key twice (Apple:
    /// `obtainPermanentIDs(for:)`).
    ///
    /// - Parameter entityNames: The entities of the new objects.
    /// - Returns: One ID per name, in order.
    /// - Throws: ``SQLiteStoreError`` for an entity not in the model or an exhausted counter.
    public func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        try withEngine { try $0.newObjectIDs(for: entityNames) }
    }

    /// Moves the key counter of `entity`'s inheritance tree (`Z_PRIMARYKEY.Z_MAX` of its root)
    /// up to `key` when it is below; gives out no key (a migration keeping `Z_PK`).
    package func raiseKeyCounter(of entity: String, to key: Int64) throws {
        try withEngine { try $0.raiseKeyCounter(of: entity, to: key) }
    }

    /// Writes one save in one SQLite transaction (Apple: `execute(_:with:)` for a save).
    ///
    /// The `Z_OPT` of every updated and deleted row is compared first with the version the
    /// context read; any difference is thrown as ``StoreSaveError/conflicts(_:)`` and nothing is
    /// written. Then rows are inserted (`Z_OPT` 1), updated (`Z_OPT` + 1) and deleted, join-table
    /// pairs and ordering columns are brought up to date.
    ///
    /// - Parameter changes: The rows to insert and update, the objects to delete.
    /// - Returns: The new version of every inserted and updated row.
    /// - Throws: ``StoreSaveError`` (conflicts, objects of other stores or already inserted),
    ///   ``SQLiteStoreError`` (a value that does not fit its attribute, SQLite's errors, such as
    ///   a uniqueness constraint); the transaction is rolled back.
    ///
    /// With ``tracksPersistentHistory``, the save's transaction and changes are written in the
    /// same SQLite transaction (``PersistentHistoryStore``).
    public func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] {
        try saveReportingVersions(changes).dictionary(for: changes)
    }

    /// Replaces the store's metadata and writes it to `Z_METADATA` (Apple:
    /// `setMetadata(_:for:)` followed by a save). Keys the store sets itself
    /// (`NSStoreType`, `NSStoreUUID`, the version hashes and their digest) keep the store's values.
    ///
    /// - Parameter metadata: Property-list values (strings, numbers, dates, data, arrays and
    ///   dictionaries of them), by key.
    /// - Throws: ``SQLiteStoreError`` when the store is not loaded, a value is not a
    ///   property-list value, or SQLite fails.
    public func setMetadata(_ metadata: [String: any Sendable]) throws {
        try withEngine { engine in
            var merged = metadata
            for key in [SQLiteStoreMetadata.typeKey, SQLiteStoreMetadata.uuidKey, StoreMetadataKey.modelVersionHashes,
                        StoreMetadataKey.modelVersionHashesVersion, SQLiteStoreMetadata.versionHashesDigestKey] {
                merged[key] = engine.metadata[key]
            }
            try engine.writeMetadata(merged)
        }
    }
}

extension SQLitePersistentStore: StoreFileLocating {
    package var storeFileURL: URL { url }
}

/// The store's rows are read from its own columns by the model's types: a context does not
/// check them again.
extension SQLitePersistentStore: TrustedRowStore {}
