// The store interface: what a coordinator asks of every store (in-memory, SQLite, file, yours).
import Foundation
import Predicates

/// A place where managed objects' values are kept between launches (or, for the in-memory
/// store, for the life of the process), shaped like Apple's incremental store
/// (`NSIncrementalStore`): metadata, fetches, saves, the values of one object, permanent IDs.
///
/// The in-memory, file and SQLite stores implement it exactly as your own store would. A
/// store deals in rows (``StoreRow``: an object's ID, version and values), never in managed
/// objects; the coordinator and contexts turn rows into objects.
///
/// A store is shared by every context of its coordinator, possibly on several threads: it is
/// `Sendable` and must synchronise its own state.
public protocol PersistentStore: AnyObject, Sendable {
    /// The store's identifier: the UUID string in its metadata (Apple: `NSStoreUUIDKey`), and
    /// the host part of its objects' URIs.
    var identifier: String { get }

    /// The store type's name, as in the metadata's `NSStoreType` (`"InMemory"`, `"SQLite"`…).
    var storeType: String { get }

    /// The store's metadata: its type, UUID, model version hashes and the app's own keys.
    var metadata: [String: any Sendable] { get }

    /// Prepares the store for a model: creates it empty, or opens what exists and checks it
    /// was written by a compatible model (Apple: `loadMetadata()`).
    ///
    /// - Parameter model: The coordinator's model.
    /// - Throws: A store error naming the file and the problem; the store stays unusable.
    func load(for model: ManagedObjectModel) throws

    /// Rows of the request's entities (Apple: `execute(_:with:)` for a fetch request).
    ///
    /// A store may apply the predicate, the order and the limits, or only some of them; the
    /// result says which, and the context evaluates the rest in memory over managed objects,
    /// so results are identical either way.
    ///
    /// - Parameter request: The entities, and the predicate (managed objects in it are replaced
    ///   by their IDs), order and limits.
    /// - Returns: The rows, and what of the request the store applied.
    func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult

    /// The current row of an object, or `nil` when the store has no such object (Apple:
    /// `newValuesForObject(with:with:)`). Used to fill a fault.
    ///
    /// - Parameter id: A permanent ID of this store.
    func row(for id: ManagedObjectID) throws -> StoreRow?

    /// New permanent IDs for objects being inserted, one per entity name given, in order
    /// (Apple: `obtainPermanentIDs(for:)`).
    ///
    /// - Parameter entityNames: The entities of the new objects.
    func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID]

    /// The IDs of the objects a relationship of an object leads to, for a row that left the
    /// relationship out (Apple: `newValue(forRelationship:forObjectWith:with:)`): none or one
    /// for a to-one, in order for an ordered to-many. The default reads ``row(for:)``.
    ///
    /// - Parameters:
    ///   - relationship: The relationship's name.
    ///   - id: A permanent ID of this store.
    /// - Returns: The related objects' IDs.
    /// - Throws: The store's errors.
    func objectIDs(forRelationship relationship: String, of id: ManagedObjectID) throws -> [ManagedObjectID]

    /// The IDs of the objects a relationship leads to, for several objects at once (Apple: the
    /// relationship faults of a prefetch, filled by one query): used when a fetch prefetches a
    /// to-many key path whose relationship the rows left out. The default asks
    /// ``objectIDs(forRelationship:of:)`` for each object.
    ///
    /// - Parameters:
    ///   - relationship: The relationship's name (of every object's entity).
    ///   - ids: Permanent IDs of this store.
    /// - Returns: The related IDs by object (in order for an ordered relationship); an object
    ///   the store does not have may be left out.
    /// - Throws: The store's errors.
    func objectIDs(forRelationship relationship: String, ofObjects ids: [ManagedObjectID]) throws -> [ManagedObjectID: [ManagedObjectID]]

    /// The metadata the store's backing data holds, read without loading the store (Apple:
    /// `metadataForPersistentStore(ofType:at:options:)`); `nil` when there is no store yet or
    /// the store cannot tell (the default). The coordinator reads it to decide on migration.
    ///
    /// - Returns: The saved metadata, or `nil`.
    /// - Throws: The store's error for backing data it cannot read.
    func savedMetadata() throws -> [String: any Sendable]?

    /// Removes the store's backing data (Apple: `destroyPersistentStore(at:type:options:)`).
    /// The default throws ``StoreManagementError/unsupported(_:)``.
    ///
    /// - Throws: The store's error when the data cannot be removed.
    func destroy() throws

    /// Writes one save atomically: every insert, update and delete, or none (Apple:
    /// `execute(_:with:)` for a save request). Updates and deletes carry the version of the
    /// row the context last saw; a row whose version moved on is a conflict, thrown as
    /// ``StoreSaveError/conflicts(_:)`` without writing anything (optimistic locking).
    ///
    /// An updated row leaves out the to-many relationships the context never loaded
    /// (relationship faults): the store keeps their stored members. Inserted rows carry every
    /// relationship.
    ///
    /// - Parameter changes: The rows to insert and update, and the objects to delete.
    /// - Returns: The new version of each inserted and updated row.
    func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64]

    /// The current rows of several objects, in one go where the store can (Apple: a batch of
    /// faults filled by one query). IDs the store does not have are left out. The default
    /// asks ``row(for:)`` for each.
    ///
    /// - Parameter ids: Permanent IDs of this store.
    /// - Returns: The rows found, in any order.
    func rows(for ids: [ManagedObjectID]) throws -> [StoreRow]
}

extension PersistentStore {
    /// Asks ``row(for:)`` for each ID.
    public func rows(for ids: [ManagedObjectID]) throws -> [StoreRow] {
        try ids.compactMap { try row(for: $0) }
    }
}

/// One object's saved state: its ID, its version (Core Data's `Z_OPT`), its attribute values
/// and its relationships as object IDs (Apple: `NSIncrementalStoreNode`).
///
/// A store may hand back rows in a packed form (``StoreRowColumns``: the values in an order
/// shared by every row of the entity, and already as the attributes' Swift types), which a
/// context copies into an object's slots without looking a key up; ``attributes`` reads the
/// same values by name either way.
public struct StoreRow: Sendable, Hashable {
    /// The object.
    public var objectID: ManagedObjectID
    /// Increases with every save of the row; 1 after the insert.
    public var version: Int64
    /// Attribute values by name (`nil` values are absent or ``KeyValueConstant/null``).
    ///
    /// For a packed row, reading makes the dictionary from the packed values (O(attributes));
    /// setting replaces the packed values.
    public var attributes: [String: KeyValueConstant] {
        get { columns?.attributeDictionary ?? storedAttributes }
        // In place, so that building a row key by key does not copy the dictionary each time.
        _modify {
            if let columns {
                storedAttributes = columns.attributeDictionary
                self.columns = nil
            }
            yield &storedAttributes
        }
        set {
            storedAttributes = newValue
            columns = nil
        }
    }
    /// The attributes of a row made with a dictionary. (Usable from inline code: the packed
    /// row's initialiser is inlined into the stores that make a row per fetched object.)
    @usableFromInline var storedAttributes: [String: KeyValueConstant]
    /// The packed values of a row a store read (`nil` for a row made with a dictionary).
    @usableFromInline package internal(set) var columns: StoreRowColumns?
    /// Relationships by name: the related objects' IDs (none or one for a to-one), in order for
    /// an ordered relationship. A store may leave a relationship out: a to-many one left out
    /// becomes a relationship fault, whose members the context asks
    /// ``PersistentStore/objectIDs(forRelationship:of:)`` for on first access; a to-one left
    /// out is asked for when the context fills the object. In a saved (updated) row, a
    /// relationship left out is unchanged.
    public var relationships: [String: [ManagedObjectID]]

    /// The value of one attribute (`nil` for none or NULL), without making the dictionary of
    /// a packed row.
    package func attributeValue(named name: String) -> KeyValueConstant? {
        guard let columns else { return storedAttributes[name] }
        return columns.constant(named: name)
    }

    /// The packed slot values of a row packed in `shape` itself (compared by identity); `nil`
    /// for a row of another shape or a row made with a dictionary.
    @inline(__always)
    package func slotValues(ifShapeIs shape: StoreRowShape) -> ContiguousArray<Any?>? {
        switch columns {
        case .some(let packed) where packed.shape === shape: return packed.slotValues
        default: return nil
        }
    }

    /// The packed slot values of a row whose shape has the slot keys `keys` and whose slots
    /// are all stored attributes (what an object of the entity takes as its values array as it
    /// is); `nil` for any other row.
    package func storedSlotValues(forSlotKeys keys: [String]) -> ContiguousArray<Any?>? {
        guard let shape = columns?.shape, shape.otherSlots.isEmpty, shape.slotKeys == keys else { return nil }
        return columns?.slotValues
    }

    /// Whether both rows have the same object, version, attribute values and relationships,
    /// packed or not.
    public static func == (lhs: StoreRow, rhs: StoreRow) -> Bool {
        lhs.objectID == rhs.objectID && lhs.version == rhs.version && lhs.relationships == rhs.relationships
            && lhs.attributes == rhs.attributes
    }

    /// Hashes the object and the version (equal rows have equal ones).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(objectID)
        hasher.combine(version)
    }
}

// The initialisers are declared here, not in the struct, so that the struct keeps its memberwise
// initialiser: a row made with it is built in place (measured: a row made by an initialiser
// declared in the struct, even one that only assigns its fields, was copied, a retain per
// reference it holds, and the original destroyed).
extension StoreRow {
    /// Creates a row.
    public init(objectID: ManagedObjectID, version: Int64, attributes: [String: KeyValueConstant] = [:],
                relationships: [String: [ManagedObjectID]] = [:]) {
        self.init(objectID: objectID, version: version, storedAttributes: attributes, columns: nil, relationships: relationships)
    }

    /// A packed row (see ``StoreRowColumns``).
    ///
    /// Inlinable: a store makes one per row it reads, and called across modules the row was
    /// built apart and then copied into place (a copy and a destruction of the whole row).
    /// Inside this module, rows made in bulk use the memberwise initialiser instead.
    @inlinable
    package init(objectID: ManagedObjectID, version: Int64, columns: StoreRowColumns,
                 relationships: [String: [ManagedObjectID]] = [:]) {
        self.objectID = objectID
        self.version = version
        self.storedAttributes = [:]
        self.columns = columns
        self.relationships = relationships
    }
}

/// What a context asks a store for.
public struct StoreFetchRequest: Sendable {
    /// The entities whose rows match: the request's entity, and its subentities when the request
    /// includes them. Abstract entities have no rows of their own.
    public var entityNames: [String]
    /// Which rows match, with managed objects replaced by their IDs; `nil` for all.
    public var predicate: KeyValuePredicate?
    /// The order.
    public var sortDescriptors: [KeyValueSortDescriptor]
    /// Rows to skip and the most to return (0: no limit). A store may apply them only when it
    /// applies the predicate and the order too. Never negative: a negative value is stored as
    /// 0, as in ``EntityFetchRequest``.
    public var fetchOffset: Int { didSet { if fetchOffset < 0 { fetchOffset = 0 } } }
    /// The most rows to return (0: no limit); never negative (a negative value is stored as 0).
    public var fetchLimit: Int { didSet { if fetchLimit < 0 { fetchLimit = 0 } } }
    /// What the context needs: rows (values) or only the IDs of the matching objects (for an
    /// ID or count fetch). Either way a store may answer with rows or IDs.
    public var resultType: ResultType
    /// For ``ResultType/rows``: whether the context wants the objects' values now (default
    /// `true`). With `false` (``EntityFetchRequest/includesPropertyValues``) the context makes
    /// faults of the objects, and a store need return only their IDs, each with its row's
    /// current version (``StoreFetchResult/objectIDs`` and ``StoreFetchResult/objectVersions``),
    /// so that a save of a fault it never loaded still checks the row's version. A store may
    /// ignore it and return rows: the context then makes faults of them all the same, and keeps
    /// the rows in the coordinator's row cache.
    public var includesPropertyValues: Bool

    /// What a store fetch is for (Apple: the request's `resultType`, as an incremental store
    /// sees it).
    public enum ResultType: Sendable, Hashable {
        /// The objects: the store returns rows, or IDs whose values it gives later through
        /// ``PersistentStore/row(for:)`` (faults).
        case rows
        /// Only the objects' IDs (an ID fetch): a store need not read values.
        case objectIDs
        /// Only how many objects match (a count fetch without unsaved changes, offset or
        /// limit): a store may answer with ``StoreFetchResult/count`` alone, or with rows or
        /// IDs as for the other types.
        case count
    }

    /// Creates a store request.
    public init(entityNames: [String], predicate: KeyValuePredicate? = nil,
                sortDescriptors: [KeyValueSortDescriptor] = [], fetchOffset: Int = 0, fetchLimit: Int = 0,
                resultType: ResultType = .rows) {
        self.entityNames = entityNames
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchOffset = Swift.max(0, fetchOffset)
        self.fetchLimit = Swift.max(0, fetchLimit)
        self.resultType = resultType
        self.includesPropertyValues = true
    }
}

/// A store's answer to a fetch.
public struct StoreFetchResult: Sendable {
    /// The rows.
    public var rows: [StoreRow] {
        didSet { rowsNameEachObjectOnce = false }
    }
    /// Whether no two of ``rows`` name one object: set by a store that knows it (the context
    /// then makes the object of a row without first looking it up in an empty registry);
    /// cleared whenever ``rows`` changes.
    package var rowsNameEachObjectOnce = false
    /// Matching objects returned without their values, after ``rows``: the context makes
    /// faults of them, whose values it asks ``PersistentStore/row(for:)`` for on first access
    /// (Apple: an incremental store returning faults from `execute(_:with:)`).
    public var objectIDs: [ManagedObjectID]
    /// The current row version of each of ``objectIDs``, in the same order, or empty when the
    /// store does not give them. A fault made from an ID with its version is checked against
    /// that version when it is saved or deleted without having been loaded (optimistic
    /// locking, as for a loaded object); one without a version is checked against the version
    /// it has when the save reads it.
    public var objectVersions: [Int64]
    /// For a ``StoreFetchRequest/ResultType/count`` request: how many objects match, when the
    /// store answers with the number alone (``rows`` and ``objectIDs`` are then ignored); the
    /// number counts only when ``appliedPredicate`` is `true` or there is no predicate.
    public var count: Int?
    /// Whether only rows (and IDs) matching the predicate were returned.
    public var appliedPredicate: Bool
    /// Whether the rows (or IDs) are in the requested order, offset and limit applied.
    public var appliedOrderAndLimits: Bool

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - rows: The matching objects with their values.
    ///   - objectIDs: Matching objects without their values (faults); default none.
    ///   - objectVersions: The row version of each of `objectIDs`, in the same order; default
    ///     none (unknown).
    ///   - appliedPredicate: Whether the store returned only matching objects.
    ///   - appliedOrderAndLimits: Whether the store ordered the objects (rows first, then IDs)
    ///     and applied the offset and limit.
    public init(rows: [StoreRow], objectIDs: [ManagedObjectID] = [], objectVersions: [Int64] = [],
                appliedPredicate: Bool, appliedOrderAndLimits: Bool) {
        self.rows = rows
        self.objectIDs = objectIDs
        self.objectVersions = objectVersions
        self.count = nil
        self.appliedPredicate = appliedPredicate
        self.appliedOrderAndLimits = appliedOrderAndLimits
    }
}

extension StoreFetchResult {
    /// An answer to a count request: the number of matching objects (the predicate applied).
    ///
    /// - Parameter count: How many objects match.
    public init(count: Int) {
        self.init(rows: [], appliedPredicate: true, appliedOrderAndLimits: true)
        self.count = count
    }
}

/// One save, as a store receives it.
public struct StoreSaveChanges: Sendable {
    /// New rows (version 0 in the request; the store sets 1).
    public var inserted: [StoreRow]
    /// Changed rows, each with the version the context last saw.
    public var updated: [StoreRow]
    /// Deleted objects, with the version the context last saw.
    public var deleted: [(objectID: ManagedObjectID, version: Int64)]
    /// Unchanged objects whose rows must still be at the version the context last saw, or the
    /// save is a conflict (Apple: `lockedObjects`, from `detectConflicts(for:)`). Nothing is
    /// written for them.
    public var locked: [(objectID: ManagedObjectID, version: Int64)]
    /// The saving context's ``ManagedObjectContext/transactionAuthor``, for a store that
    /// records persistent history.
    public var transactionAuthor: String?
    /// The saving context's ``ManagedObjectContext/name``, for a store that records persistent
    /// history.
    public var contextName: String?
    /// For each updated row, the names of the saved properties whose values changed since the
    /// context last saved or read it. Filled only for stores whose
    /// ``PersistentHistoryStore/tracksPersistentHistory`` is on (they record it in
    /// ``PersistentHistoryChange/updatedPropertyNames``); empty otherwise.
    public var updatedPropertyNames: [ManagedObjectID: Set<String>] = [:]
    /// For each row of ``updated`` (same index), the slots of its object (bit *n* for the
    /// object's slot *n*, the entity's `allProperties` order) whose values may differ from
    /// the store's row at the row's version: a store may write only their columns (and the
    /// new version), as Core Data writes only the changed attributes. `UInt64.max`: every
    /// value. Filled by a saving context with one entry per updated row; a store that finds
    /// another number of entries (a save made by hand) writes every value.
    package var updatedSlotMasks: [UInt64] = []

    /// Creates a save.
    public init(inserted: [StoreRow] = [], updated: [StoreRow] = [],
                deleted: [(objectID: ManagedObjectID, version: Int64)] = [],
                locked: [(objectID: ManagedObjectID, version: Int64)] = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.locked = locked
    }

    /// Whether there is nothing to write or check.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && locked.isEmpty }
}

/// A save a store refused.
public enum StoreSaveError: Error, Equatable, Sendable {
    /// Rows changed in the store since the context read them (optimistic locking; Apple:
    /// `NSMergeConflict`s in an `NSManagedObjectMergeError`): each object with the version the
    /// context expected and the store's version (0 when the row was deleted).
    case conflicts([StoreConflict])
    /// An object to insert already exists, or one to update does not belong to the store.
    case invalidObject(ManagedObjectID, reason: String)
    /// The save would give the object the same values for a uniqueness constraint of its
    /// entity (the property names) as another object (Apple:
    /// `NSManagedObjectConstraintMergeError`). A context finds these conflicts before it
    /// writes and resolves them with its merge policy; a store reports the ones it meets
    /// anyway (another writer got there first).
    case uniquenessConstraint(ManagedObjectID, properties: [String])
}

/// One optimistic-locking conflict.
public struct StoreConflict: Sendable, Hashable {
    /// The object.
    public var objectID: ManagedObjectID
    /// The version the context last saw.
    public var expectedVersion: Int64
    /// The version in the store; 0 when the store no longer has the object.
    public var storeVersion: Int64

    /// Creates a conflict.
    public init(objectID: ManagedObjectID, expectedVersion: Int64, storeVersion: Int64) {
        self.objectID = objectID
        self.expectedVersion = expectedVersion
        self.storeVersion = storeVersion
    }
}

extension StoreSaveError: LocalizedError, CustomStringConvertible {
    /// A sentence naming the objects.
    public var description: String {
        switch self {
        case .conflicts(let conflicts):
            let list = conflicts.map { "\($0.objectID) (expected version \($0.expectedVersion), store has \($0.storeVersion))" }
            return "the save conflicts with changes saved meanwhile: " + list.joined(separator: ", ")
        case .invalidObject(let id, let reason):
            return "the store cannot save \(id): \(reason)"
        case .uniquenessConstraint(let id, let properties):
            return "the store cannot save \(id): another \(id.entityName) has the same \(properties.joined(separator: ", ")) (a uniqueness constraint)"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
