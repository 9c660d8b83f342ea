// Fetch requests: which objects of an entity to fetch, in what order, as what.
import Foundation
import Predicates

/// A description of a search for objects of one entity (Apple: `NSFetchRequest`).
///
/// A request is a value: build it, keep it, run it in a context later. Fetch request templates
/// in a model (``ManagedObjectModel/fetchRequestTemplate(named:)``) are requests whose
/// predicate may hold substitution variables (`$name`), filled by
/// ``ManagedObjectModel/fetchRequest(fromTemplateNamed:substitutionVariables:)``.
///
/// The name avoids SwiftUI's `FetchRequest` and SwiftData's `FetchDescriptor`, which apps
/// import beside this package.
///
/// - Important: Thread safety: a `Sendable` value.
public struct EntityFetchRequest: Sendable, Hashable {
    /// What a fetch returns (Apple: `NSFetchRequestResultType`).
    public enum ResultType: Sendable, Hashable {
        /// Managed objects (the default).
        case managedObjects
        /// Object IDs only.
        case objectIDs
        /// Dictionaries of the chosen properties (``propertiesToFetch``).
        case dictionaries
        /// The number of matching objects.
        case count
    }

    /// The name of the entity whose objects are fetched.
    public var entityName: String
    /// Which objects match, or `nil` for all.
    public var predicate: KeyValuePredicate?
    /// The order of the results; empty for the store's order.
    public var sortDescriptors: [KeyValueSortDescriptor]
    /// The most results to return; 0 means no limit (Apple's default). A negative value is
    /// stored as 0 (Apple's property is unsigned in Objective-C), so every store and result
    /// type sees the same request.
    public var fetchLimit: Int { didSet { if fetchLimit < 0 { fetchLimit = 0 } } }
    /// How many leading results to skip; a negative value is stored as 0, so it skips nothing
    /// on every store and for every result type.
    public var fetchOffset: Int { didSet { if fetchOffset < 0 { fetchOffset = 0 } } }
    /// How many objects to load at a time; 0 means all at once. A negative value is stored as
    /// 0; a size larger than the results (up to `Int.max`) loads them in one batch.
    public var fetchBatchSize: Int { didSet { if fetchBatchSize < 0 { fetchBatchSize = 0 } } }
    /// Whether objects of subentities match too (default `true`).
    public var includesSubentities: Bool
    /// Whether unsaved inserts, updates and deletes in the context count (default `true`).
    public var includesPendingChanges: Bool
    /// Whether objects come back as faults (default `true`).
    public var returnsObjectsAsFaults: Bool
    /// Whether the fetch reads the objects' property values (Apple: `includesPropertyValues`;
    /// default `true`).
    ///
    /// With `false`, a managed-object fetch asks its stores only for the matching objects'
    /// IDs and row versions: objects not yet registered come back as faults, no row data is
    /// read or cached for them, and the first access to one loads its values (from the
    /// coordinator's row cache when it has the row, otherwise from the store). This is Core
    /// Data's idiom for fetching objects only to delete them:
    ///
    /// ```swift
    /// var request = EntityFetchRequest(entityName: "Record")
    /// request.includesPropertyValues = false
    /// for record in try context.fetch(request) { context.delete(record) }
    /// try context.save()
    /// ```
    ///
    /// The versions read with the IDs keep optimistic locking exact: deleting (or changing)
    /// such a fault and saving is a merge conflict when another writer changed the row after
    /// the fetch. Objects already registered with their values stay as they are. A store that
    /// cannot skip the values may return them anyway (see
    /// ``StoreFetchRequest/includesPropertyValues``); the objects are faults all the same. A
    /// predicate or sort order the store cannot apply is evaluated on the objects, which loads
    /// their values. Ignored by ID, count and dictionary fetches, by a fetch with a
    /// ``fetchBatchSize`` (whose objects are faults anyway) and in a child context (whose
    /// values come from its parent).
    public var includesPropertyValues: Bool
    /// Whether dictionary results drop duplicates (default `false`).
    public var returnsDistinctResults: Bool
    /// What the fetch returns.
    public var resultType: ResultType
    /// For dictionary results: the property names or key paths to fetch; empty for all.
    public var propertiesToFetch: [PropertyToFetch]
    /// For dictionary results: the properties to group by.
    public var propertiesToGroupBy: [PropertyToFetch]
    /// For grouped dictionary results: which groups to keep (SQL's `HAVING`).
    public var havingPredicate: KeyValuePredicate?
    /// Relationship key paths whose destinations are loaded with the results.
    public var relationshipKeyPathsForPrefetching: [String]

    /// Creates a request for objects of an entity.
    ///
    /// - Parameters:
    ///   - entityName: The entity's name.
    ///   - predicate: Which objects match (default all).
    ///   - sortDescriptors: The result order (default none).
    public init(entityName: String, predicate: KeyValuePredicate? = nil,
                sortDescriptors: [KeyValueSortDescriptor] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = 0
        self.fetchOffset = 0
        self.fetchBatchSize = 0
        self.includesSubentities = true
        self.includesPendingChanges = true
        self.returnsObjectsAsFaults = true
        self.includesPropertyValues = true
        self.returnsDistinctResults = false
        self.resultType = .managedObjects
        self.propertiesToFetch = []
        self.propertiesToGroupBy = []
        self.havingPredicate = nil
        self.relationshipKeyPathsForPrefetching = []
    }
}
