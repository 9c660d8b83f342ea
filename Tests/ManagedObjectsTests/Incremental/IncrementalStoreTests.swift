import Foundation
import Testing
import Predicates
import TestSupport
@testable import ManagedObjects

/// A custom store written against the public interface: faults, separate relationships,
/// reference objects, metadata, in-memory evaluation and optimistic locking.
@Suite struct IncrementalStoreTests {
    /// A coordinator on a fresh test store, stocked with the fruit stand; the store's counters
    /// reset after stocking.
    static func stocked(seed: String = "fruit") throws -> (KeyedTestStore, PersistentStoreCoordinator, ManagedObjectContext) {
        let store = KeyedTestStore(seed: seed)
        let coordinator = PersistentStoreCoordinator(model: try FruitStandModel.make())
        try coordinator.addStore(store)
        try FruitStandModel.stock(ManagedObjectContext(coordinator: coordinator))
        store.resetCalls()
        // The coordinator's row cache holds the rows the stocking saved; a staleness interval
        // of 0 makes faults ask the store, the path these tests are about.
        let context = ManagedObjectContext(coordinator: coordinator)
        context.stalenessInterval = 0
        return (store, coordinator, context)
    }

    @Test func aRegisteredTypeOpensByNameWithStandardMetadata() throws {
        PersistentStoreCoordinator.registerStoreType(KeyedTestStore.type) { description in
            KeyedTestStore(seed: description.url?.path ?? "none")
        }
        let model = try FruitStandModel.make()
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = try coordinator.addStore(with: StoreDescription(type: KeyedTestStore.type, url: URL(fileURLWithPath: "/tmp/a")))
        #expect(store is KeyedTestStore)
        let metadata = coordinator.metadata(for: store)
        #expect(metadata[StoreMetadata.storeTypeKey] as? String == KeyedTestStore.type)
        #expect(metadata[StoreMetadata.storeUUIDKey] as? String == store.identifier)
        #expect(metadata[StoreMetadataKey.modelVersionHashes] as? [String: Data] == model.entityVersionHashesByName)
        #expect(metadata[StoreMetadataKey.modelVersionHashesVersion] as? Int == 3)
    }

    @Test func reproducibleIdentifiersAreUUIDsFixedBySeed() throws {
        let first = StoreMetadata.reproducibleIdentifier(for: "/var/bugs.txt")
        #expect(first == StoreMetadata.reproducibleIdentifier(for: "/var/bugs.txt"))
        #expect(first != StoreMetadata.reproducibleIdentifier(for: "/var/bugs2.txt"))
        let uuid = try #require(UUID(uuidString: first))
        #expect(uuid.uuidString == first)
        #expect(Array(first)[14] == "8", "version 8 (custom)")
        #expect("89AB".contains(Array(first)[19]), "RFC 4122 variant")
    }

    @Test func referenceObjectsMapToIDsAndBack() throws {
        let (store, coordinator, _) = try Self.stocked(seed: "keys")
        let id = store.newObjectID(forEntityNamed: "Crate", referenceObject: .string("k2"))
        #expect(store.referenceObject(for: id) == .string("k2"))
        #expect(id.storeIdentifier == store.identifier)
        #expect(store.referenceObject(for: ManagedObjectID.temporary(entityName: "Crate")) == nil)
        #expect(store.referenceObject(for: ManagedObjectID(entityName: "Crate", storeIdentifier: "other", referenceObject: .string("k2"))) == nil)
        // The same seed gives the same identifier, so a URI stays valid for a new store object.
        let again = KeyedTestStore(seed: "keys")
        try PersistentStoreCoordinator(model: try FruitStandModel.make()).addStore(again)
        #expect(again.newObjectID(forEntityNamed: "Crate", referenceObject: .string("k2")) == id)
        #expect(coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()) == id)
        #expect(ManagedObjectID.ReferenceObject.string("k2").stringValue == "k2")
        #expect(ManagedObjectID.ReferenceObject.integer(4).integerValue == 4)
        #expect(ManagedObjectID.ReferenceObject.integer(4).stringValue == nil)
    }

    @Test func fetchedObjectsAreFaultsWhoseValuesLoadOneByOne() throws {
        let (store, _, context) = try Self.stocked()
        let apples = try context.fetch(EntityFetchRequest(entityName: "Apple"))
        #expect(apples.count == 3)
        #expect(apples.allSatisfy { $0.isFault })
        #expect(store.calls.rows.isEmpty, "a fetch asks for no values")
        #expect(try apples[1].value(forKey: "radius") as? Double == 2.4)
        #expect(store.calls.rows == [apples[1].objectID], "only the object used is loaded")
        #expect(!apples[1].isFault && apples[0].isFault)
    }

    @Test func idAndCountFetchesLoadNoValues() throws {
        let (store, _, context) = try Self.stocked()
        let request = EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "radius > 2.1"))
        #expect(try context.count(for: request) == 3)
        #expect(try context.fetchObjectIDs(request).count == 3)
        #expect(store.calls.rows.isEmpty)
        #expect(store.calls.fetches == 2)
    }

    @Test func countsAreAnsweredByTheStoreWhenNothingIsPending() throws {
        let (store, _, context) = try Self.stocked()
        let big = EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "radius > 2.1"))
        #expect(try context.count(for: big) == 3)
        #expect(try context.count(for: EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "crate.label == 'O'"))) == 2,
                "a predicate the store cannot apply is evaluated by the context")
        var limited = big
        limited.fetchLimit = 2
        #expect(try context.count(for: limited) == 2)
        let request = StoreFetchRequest(entityNames: ["Apple", "Orange"], predicate: try KeyValuePredicate(format: "radius > 2.1"), resultType: .count)
        #expect(try store.fetch(request).count == 3)
        let apple = try context.insertNewObject(forEntityNamed: "Apple")
        try apple.setValue(5.0, forKey: "radius")
        #expect(try context.count(for: big) == 4, "unsaved objects count")
    }

    @Test func theStoresOrderAndPredicateAreKeptWithoutLoadingValues() throws {
        let (store, _, context) = try Self.stocked()
        var request = EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "radius < 2.5"),
                                         sortDescriptors: [KeyValueSortDescriptor(key: "radius", ascending: false)])
        request.fetchLimit = 2
        let fruit = try context.fetch(request)
        #expect(store.calls.rows.isEmpty)
        #expect(try fruit.map { try $0.value(forKey: "radius") as? Double } == [2.4, 2.2])
    }

    @Test func predicatesThroughRelationshipsFallBackToTheContext() throws {
        let (_, _, context) = try Self.stocked()
        let request = EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "crate.label == 'O'"),
                                         sortDescriptors: [KeyValueSortDescriptor(key: "radius")])
        #expect(try context.fetch(request).map { try $0.value(forKey: "radius") as? Double } == [1.9, 2.6])
    }

    @Test func relatedObjectsCompareByIDInTheStoresEvaluation() throws {
        let (store, _, context) = try Self.stocked()
        let crate = try #require(try context.fetch(EntityFetchRequest(entityName: "Crate", predicate: try KeyValuePredicate(format: "label == 'A'"))).first)
        store.resetCalls()
        let request = EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "crate == %@", crate))
        #expect(try context.count(for: request) == 3)
        #expect(store.calls.rows.isEmpty)
        let crates = EntityFetchRequest(entityName: "Crate", predicate: try KeyValuePredicate(format: "fruit.@count == 2"))
        #expect(try context.fetchObjectIDs(crates).count == 1)
    }

    @Test func relationshipsLeftOutOfRowsAreAskedSeparately() throws {
        let (store, _, context) = try Self.stocked()
        let apple = try #require(try context.fetch(EntityFetchRequest(entityName: "Apple")).first)
        #expect(try apple.value(forKeyPath: "crate.label") as? String == "A")
        #expect(store.calls.relationships.contains("crate"))
        let crate = try #require(try apple.value(forKey: "crate") as? ManagedObject)
        #expect((try crate.value(forKey: "fruit") as? Set<ManagedObject>)?.count == 3)
        #expect(store.calls.relationships.contains("fruit"))
    }

    @Test func unsavedChangesStillCountWhenTheStoreFilters() throws {
        let (_, _, context) = try Self.stocked()
        let apple = try context.insertNewObject(forEntityNamed: "Apple")
        try apple.setValue(3.0, forKey: "radius")
        let big = try context.fetch(EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "radius > 2.5"),
                                                       sortDescriptors: [KeyValueSortDescriptor(key: "radius")]))
        #expect(try big.map { try $0.value(forKey: "radius") as? Double } == [2.6, 3.0])
        let small = try #require(try context.fetch(EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "radius == 1.9"))).first)
        try small.setValue(9.0, forKey: "radius")
        #expect(try context.count(for: EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "radius == 1.9"))) == 0)
    }

    @Test func savesThroughTheStoreArePermanentAndVersioned() throws {
        let (store, coordinator, context) = try Self.stocked()
        let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        try stand.setValue("Market", forKey: "name")
        try context.save()
        #expect(try store.row(for: stand.objectID)?.version == 2)
        #expect(try store.row(for: stand.objectID)?.attributes["name"] == "Market")
        #expect(store.referenceObject(for: stand.objectID)?.stringValue?.hasPrefix("k") == true)
        let fresh = ManagedObjectContext(coordinator: coordinator)
        #expect(try fresh.fetch(EntityFetchRequest(entityName: "Stand")).first?.value(forKey: "name") as? String == "Market")
    }

    @Test func staleVersionsAreConflictsAndNothingIsWritten() throws {
        let (store, coordinator, context) = try Self.stocked()
        let other = ManagedObjectContext(coordinator: coordinator)
        let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        let mirror = try #require(try other.fetch(EntityFetchRequest(entityName: "Stand")).first)
        try stand.setValue("Market", forKey: "name")
        try mirror.setValue("Bazaar", forKey: "name")
        try context.save()
        #expect(throws: (any Error).self) { try other.save() }
        #expect(try store.row(for: stand.objectID)?.attributes["name"] == "Market", "the first write is not lost")
        let stale = StoreSaveChanges(updated: [StoreRow(objectID: stand.objectID, version: 1, attributes: ["name": "Late"])])
        #expect(throws: StoreSaveError.conflicts([StoreConflict(objectID: stand.objectID, expectedVersion: 1, storeVersion: 2)])) {
            try store.save(stale)
        }
        let gone = StoreSaveChanges(deleted: [(store.newObjectID(forEntityNamed: "Stand", referenceObject: .string("nope")), 1)])
        #expect(gone.conflicts { _ in nil } == [StoreConflict(objectID: gone.deleted[0].objectID, expectedVersion: 1, storeVersion: 0)])
    }

    @Test func lockedObjectsConflictWhenChangedElsewhere() throws {
        let (store, coordinator, context) = try Self.stocked()
        let other = ManagedObjectContext(coordinator: coordinator)
        let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        _ = try stand.value(forKey: "name")
        let crate = try #require(try context.fetch(EntityFetchRequest(entityName: "Crate", predicate: try KeyValuePredicate(format: "label == 'A'"))).first)
        let mirror = try #require(try other.fetch(EntityFetchRequest(entityName: "Stand")).first)
        try mirror.setValue("Bazaar", forKey: "name")
        try other.save()
        context.detectConflicts(for: stand)
        try crate.setValue("B", forKey: "label")
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try store.row(for: crate.objectID)?.attributes["label"] == "A", "nothing written")
        // On the in-memory store as well.
        let memory = InMemoryStore()
        let locked = StoreSaveChanges(locked: [(ManagedObjectID(entityName: "Stand", storeIdentifier: memory.identifier, primaryKey: 9), 1)])
        #expect(throws: StoreSaveError.self) { try memory.save(locked) }
    }

    @Test func theInMemoryEvaluationAppliesOrderOffsetAndLimit() throws {
        let model = try FruitStandModel.make()
        let ids = (1...5).map { ManagedObjectID(entityName: "Apple", storeIdentifier: "S", primaryKey: Int64($0)) }
        let radii = [2.0, 1.0, 3.0, 5.0, 4.0]
        let rows = zip(ids, radii).map { StoreRow(objectID: $0, version: 1, attributes: ["radius": .double($1)]) }
            + [StoreRow(objectID: ManagedObjectID(entityName: "Stand", storeIdentifier: "S", primaryKey: 1), version: 1)]
        var request = StoreFetchRequest(entityNames: ["Apple"], predicate: try KeyValuePredicate(format: "radius >= 2"),
                                        sortDescriptors: [KeyValueSortDescriptor(key: "radius")], fetchOffset: 1, fetchLimit: 2)
        let result = try request.evaluate(over: rows, in: model)
        #expect(result.appliedPredicate && result.appliedOrderAndLimits)
        #expect(result.rows.map(\.objectID) == [ids[2], ids[4]])
        request.predicate = try KeyValuePredicate(format: "noSuchKey == 1")
        let unknown = try request.evaluate(over: rows, in: model, returningFaults: true)
        #expect(!unknown.appliedPredicate && !unknown.appliedOrderAndLimits)
        #expect(unknown.objectIDs.count == 5 && unknown.rows.isEmpty, "every row of the entity, no others")
        request.predicate = nil
        request.sortDescriptors = [KeyValueSortDescriptor(key: "crate.label")]
        let unsorted = try request.evaluate(over: rows, in: model)
        #expect(unsorted.appliedPredicate && !unsorted.appliedOrderAndLimits && unsorted.rows.count == 5)
    }
}
