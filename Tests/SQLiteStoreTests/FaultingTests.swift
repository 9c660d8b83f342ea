import Foundation
import Testing
import ManagedObjects
import Predicates
import Synchronization
@testable import SQLiteStore

/// A store that forwards to an SQLite store and counts the fetches and row reads it is asked for.
final class CountingStore: PersistentStore {
    let base: SQLitePersistentStore
    let counts = Mutex((fetches: 0, rowBatches: 0, singleRows: 0, relationships: 0))

    init(_ base: SQLitePersistentStore) { self.base = base }

    var identifier: String { base.identifier }
    var storeType: String { base.storeType }
    var metadata: [String: any Sendable] { base.metadata }
    func load(for model: ManagedObjectModel) throws { try base.load(for: model) }
    func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        counts.withLock { $0.fetches += 1 }
        return try base.fetch(request)
    }
    func row(for id: ManagedObjectID) throws -> StoreRow? {
        counts.withLock { $0.singleRows += 1 }
        return try base.row(for: id)
    }
    func rows(for ids: [ManagedObjectID]) throws -> [StoreRow] {
        counts.withLock { $0.rowBatches += 1 }
        return try base.rows(for: ids)
    }
    func objectIDs(forRelationship relationship: String, of id: ManagedObjectID) throws -> [ManagedObjectID] {
        counts.withLock { $0.relationships += 1 }
        return try base.objectIDs(forRelationship: relationship, of: id)
    }
    func objectIDs(forRelationship relationship: String, ofObjects ids: [ManagedObjectID]) throws -> [ManagedObjectID: [ManagedObjectID]] {
        counts.withLock { $0.relationships += 1 }
        return try base.objectIDs(forRelationship: relationship, ofObjects: ids)
    }
    /// Every call that reads the file.
    var queries: Int { counts.withLock { $0.fetches + $0.rowBatches + $0.singleRows + $0.relationships } }
    func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] { try base.newObjectIDs(for: entityNames) }
    func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] { try base.save(changes) }
}

@Suite struct FaultingTests {
    /// A file with the parity table's data, and a fresh context on a counting store over it.
    static func stack(_ directory: TemporaryDirectory) throws -> (ManagedObjectContext, CountingStore) {
        let url = directory.file("Faults.sqlite")
        let model = try SQLParityTableTests.model()
        if !FileManager.default.fileExists(atPath: url.path) {
            let coordinator = PersistentStoreCoordinator(model: model)
            try coordinator.addStore(SQLitePersistentStore(url: url))
            let context = ManagedObjectContext(coordinator: coordinator)
            try SQLParityTableTests.stock(context)
            try context.save()
        }
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = CountingStore(SQLitePersistentStore(url: url))
        try coordinator.addStore(store)
        return (ManagedObjectContext(coordinator: coordinator), store)
    }

    @Test func aBatchedFetchHoldsIDsAndFillsOneBatchPerQuery() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, store) = try Self.stack(directory)
        var request = EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "serial", ascending: false)])
        request.fetchBatchSize = 8
        let results = try context.fetchBatched(request)
        #expect(results.count == 60)
        #expect(context.registeredObjects.isEmpty)
        #expect(store.counts.withLock { $0.fetches } == 1)

        let object = results[17]            // batch 2: positions 16..<24
        #expect(object.stored("serial") as? Int64 == 42)
        #expect(store.counts.withLock { $0.rowBatches } == 1)
        let fruit = context.registeredObjects.filter { $0.entity.name == "Fruit" }
        #expect(fruit.count == 8)
        #expect(fruit.allSatisfy { !$0.isFault })
        #expect(store.counts.withLock { $0.singleRows } == 0)

        let serials = results.map { $0.stored("serial") as? Int64 }
        #expect(serials == (0..<60).reversed().map { Int64($0) })
        #expect(store.counts.withLock { $0.rowBatches } == 8)   // one per batch, none twice
        #expect(store.counts.withLock { $0.singleRows } == 0)
    }

    @Test func walkingABatchedFetchKeepsTwoBatchesAndWhatIsHeld() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, store) = try Self.stack(directory)
        var request = EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "serial")])
        request.fetchBatchSize = 8
        let results = try context.fetchBatched(request)
        let kept = results[3]
        try kept.setValue("changed", forKey: "name")     // unsaved: stays
        let held = results[12]                            // held by the test: stays
        var sum: Int64 = 0
        for object in results { sum += object.stored("serial") as? Int64 ?? 0 }
        #expect(sum == (0..<60).reduce(0, +))
        let fruit = context.registeredObjects.filter { $0.entity.name == "Fruit" }
        #expect(fruit.count <= 2 * 8 + 2)
        #expect(results[3] === kept && kept.stored("name") as? String == "changed")
        #expect(results[12] === held)
        #expect(store.counts.withLock { $0.singleRows } == 0)
        // Reading a released position again makes a new object from the store (the row cache).
        #expect(results[20].stored("serial") as? Int64 == 20)
    }

    @Test func countsAndObjectIDsAreAnsweredWithoutRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, store) = try Self.stack(directory)
        let memory = PersistentStoreCoordinator(model: try SQLParityTableTests.model())
        try memory.addStore(InMemoryStore())
        let reference = ManagedObjectContext(coordinator: memory)
        try SQLParityTableTests.stock(reference)
        try reference.save()
        for format in ["count > 0", "name BEGINSWITH[c] 'a'", "ANY tags.label == 'sweet'", "TRUEPREDICATE"] {
            var request = EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: format),
                                             sortDescriptors: [KeyValueSortDescriptor(key: "serial")])
            #expect(try context.count(for: request) == reference.count(for: request), "\(format)")
            request.fetchOffset = 2
            request.fetchLimit = 5
            #expect(try context.count(for: request) == reference.count(for: request), "\(format)")
            let ids = try context.fetchObjectIDs(request)
            let expected = try reference.fetch(request).map { $0.stored("serial") as? Int64 }
            #expect(try ids.map { try context.existingObject(with: $0).stored("serial") as? Int64 } == expected, "\(format)")
        }
        var counting = StoreFetchRequest(entityNames: ["Fruit"], predicate: try KeyValuePredicate(format: "count > 0"), fetchLimit: 3)
        counting.resultType = .count
        let result = try store.base.fetch(counting)
        #expect(result.rows.isEmpty && result.count == 3)
        // A predicate SQL cannot decide: the store answers with rows, and the context counts them.
        let block = KeyValuePredicate(block: { object, _ in ((object as? ManagedObject)?.stored("serial") as? Int64 ?? 1) % 2 == 0 })
        #expect(try context.count(for: EntityFetchRequest(entityName: "Fruit", predicate: block)) == 30)
    }

    @Test func prefetchingLoadsRelatedObjectsInOneQueryPerKeyPath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, store) = try Self.stack(directory)
        var request = EntityFetchRequest(entityName: "Fruit")
        request.relationshipKeyPathsForPrefetching = ["stand.owner", "tags"]
        let fruit = try context.fetch(request)
        #expect(fruit.count == 60)
        #expect(store.counts.withLock { $0.rowBatches } == 3)    // stands, their owners, tags
        let related = context.registeredObjects.filter { $0.entity.name != "Fruit" }
        #expect(related.count == 6 + 3 + 8)
        #expect(related.allSatisfy { !$0.isFault })
        #expect(store.counts.withLock { $0.singleRows } == 0)
    }

    @Test func theRowCacheIsSharedAndForgetsRowsOthersChanged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (first, store) = try Self.stack(directory)
        let ids = try first.fetchObjectIDs(EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "serial")]))
        _ = try first.fetchBatched(EntityFetchRequest(entityName: "Fruit"))[0]   // fills all 60: one batch
        #expect(try store.base.withEngine { $0.rowCache.rows.count } == 60)
        // A second context of the coordinator fills its faults from the cache.
        let second = ManagedObjectContext(coordinator: try #require(first.coordinator))
        let object = try second.object(with: ids[5])
        #expect(object.stored("serial") as? Int64 == 5)

        // Another coordinator (another connection) changes the row: the cache is dropped.
        let other = PersistentStoreCoordinator(model: try SQLParityTableTests.model())
        try other.addStore(SQLitePersistentStore(url: directory.file("Faults.sqlite")))
        let writer = ManagedObjectContext(coordinator: other)
        try writer.existingObject(with: ManagedObjectID(entityName: "Fruit", storeIdentifier: store.identifier,
                                                        primaryKey: try #require(Self.key(ids[5])))).setValue("changed", forKey: "name")
        try writer.save()
        // Contexts that read the store, not the coordinator's own cached rows (staleness 0).
        let third = ManagedObjectContext(coordinator: try #require(first.coordinator))
        third.stalenessInterval = 0
        second.stalenessInterval = 0
        #expect(try third.existingObject(with: ids[5]).stored("name") as? String == "changed")
        second.refresh(object, mergeChanges: false)
        #expect(object.stored("name") as? String == "changed")
    }

    static func key(_ id: ManagedObjectID) -> Int64? {
        if case .integer(let key) = id.referenceObject { return key }
        return nil
    }
}
