import Foundation
import Testing
import TestSupport
import KeyValueCoding
import ManagedObjects
import Predicates
@testable import SQLiteStore
import PostgreSQLStore

/// The context's save and fetch behaviour (ManagedObjectsTests/ContextSaveFetchTests) run on
/// the in-memory store, the SQLite store, the SQLite store applying predicates in SQL, the
/// atomic file store, a custom store written against the public interface (TestSupport's
/// KeyedTestStore: faults, separate relationships, string keys) and the PostgreSQL store (a
/// schema per test on the test server, TestSupport/PostgreSQLTestServer): every case must
/// behave identically.
@Suite struct ContextMatrixTests {
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case inMemory, sqlite, sqliteWithSQLPredicates, atomicFile, customStore, postgreSQL
        var testDescription: String { rawValue }
    }

    /// The shared fruit-stand model (TestSupport).
    static func fruitModel() throws -> ManagedObjectModel { try FruitStandModel.make() }

    /// A coordinator with one store of `kind` (a file in `directory` for SQLite).
    static func coordinator(_ kind: Kind, _ directory: TemporaryDirectory, model: ManagedObjectModel) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(model: model)
        switch kind {
        case .inMemory: try coordinator.addStore(InMemoryStore())
        case .sqlite: try coordinator.addStore(SQLitePersistentStore(url: directory.file("Fruit.sqlite"), evaluatesPredicatesInSQL: false))
        case .sqliteWithSQLPredicates:
            try coordinator.addStore(SQLitePersistentStore(url: directory.file("Fruit.sqlite"), evaluatesPredicatesInSQL: true))
        case .atomicFile: try coordinator.addStore(AtomicFileStore(url: directory.file("Fruit.store")))
        case .customStore: try coordinator.addStore(KeyedTestStore(seed: directory.url.path))
        case .postgreSQL:
            // One schema per test directory (the throwaway server is dropped with its schemas).
            let schema = "matrix_" + StoreMetadata.reproducibleIdentifier(for: directory.url.path).replacingOccurrences(of: "-", with: "").lowercased()
            try coordinator.addStore(PostgreSQLPersistentStore(url: try PostgreSQLTestServer.url(), schema: schema))
        }
        return coordinator
    }

    /// A stand with two crates: apples 2.0, 2.4, 2.2 in the first, oranges 2.6, 1.9 in the second.
    static func stocked(_ kind: Kind, _ directory: TemporaryDirectory) throws -> (PersistentStoreCoordinator, ManagedObjectContext) {
        let coordinator = try coordinator(kind, directory, model: try fruitModel())
        let context = ManagedObjectContext(coordinator: coordinator)
        try FruitStandModel.stock(context)
        return (coordinator, context)
    }

    @Test(arguments: Kind.allCases) func permanentIDsPerInheritanceRoot(kind: Kind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (coordinator, context) = try Self.stocked(kind, directory)
        #expect(!context.hasChanges)
        let fruit = try context.fetch(EntityFetchRequest(entityName: "Fruit"))
        #expect(fruit.count == 5)
        let keys = fruit.compactMap { object -> Int64? in
            if case .integer(let key) = object.objectID.referenceObject { return key }
            return nil
        }
        if kind == .customStore {
            #expect(keys.isEmpty, "the custom store's keys are strings")
        } else {
            #expect(Set(keys) == Set(1...5))
        }
        #expect(fruit.allSatisfy { $0.objectID.storeIdentifier == coordinator.stores[0].identifier })
    }

    @Test(arguments: Kind.allCases) func fetchesWithPredicatesSortingSubentitiesAndLimits(kind: Kind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (coordinator, _) = try Self.stocked(kind, directory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let big = try context.fetch(EntityFetchRequest(entityName: "Apple", predicate: KeyValuePredicate(format: "radius > 2.1")))
        #expect(Set(big.map { $0.stored("radius") as? Double }) == [2.4, 2.2])
        let sorted = try context.fetch(EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "radius", ascending: false)]))
        #expect(sorted.map { $0.stored("radius") as? Double } == [2.6, 2.4, 2.2, 2.0, 1.9])
        #expect(try sorted.first?.value(forKeyPath: "crate.stand.name") as? String == "Corner")
        var onlyFruit = EntityFetchRequest(entityName: "Fruit")
        onlyFruit.includesSubentities = false
        #expect(try context.count(for: onlyFruit) == 0, "Fruit is abstract")
        var limited = EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "radius")])
        limited.fetchOffset = 1
        limited.fetchLimit = 2
        #expect(try context.fetch(limited).map { $0.stored("radius") as? Double } == [2.0, 2.2])
        let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        let crates = try context.fetch(EntityFetchRequest(entityName: "Crate", predicate: KeyValuePredicate(format: "stand == %@", stand)))
        #expect(crates.count == 2)
        let either = try context.fetch(EntityFetchRequest(entityName: "Fruit", predicate: KeyValuePredicate(format: "radius < 2 OR radius >= 2.6")))
        #expect(Set(either.map { $0.stored("radius") as? Double }) == [1.9, 2.6])
    }

    @Test(arguments: Kind.allCases) func relatedObjectsAreFaultsUntilRead(kind: Kind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (coordinator, _) = try Self.stocked(kind, directory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let apple = try #require(try context.fetch(EntityFetchRequest(entityName: "Apple")).first)
        let crate = try #require(apple.stored("crate") as? ManagedObject)
        #expect(crate.isFault)
        #expect(crate.stored("label") as? String == "A")
        #expect(!crate.isFault)
    }

    @Test(arguments: Kind.allCases) func insertedAndDeletedObjectsAreReflected(kind: Kind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (_, context) = try Self.stocked(kind, directory)
        let orange = try context.insertNewObject(forEntityNamed: "Orange")
        try orange.setValue(3.0, forKey: "radius")
        let largest = try context.fetch(EntityFetchRequest(entityName: "Fruit", predicate: KeyValuePredicate(format: "radius > 2.5")))
        #expect(largest.count == 2)
        context.delete(try #require(largest.first { $0 !== orange }))
        #expect(try context.count(for: EntityFetchRequest(entityName: "Fruit")) == 5)
        var saved = EntityFetchRequest(entityName: "Fruit")
        saved.includesPendingChanges = false
        #expect(try context.count(for: saved) == 5, "the saved fruit, the deleted one included")
    }

    @Test(arguments: Kind.allCases) func unsavedValuesAreMatched(kind: Kind) throws {
        // An object changed but not saved matches by its current values. With predicates in
        // SQL the store does not return its row (the saved value does not match); the context
        // adds its changed objects back before it filters.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (_, context) = try Self.stocked(kind, directory)
        let small = try #require(try context.fetch(EntityFetchRequest(entityName: "Fruit", predicate: KeyValuePredicate(format: "radius < 2"))).first)
        try small.setValue(5.0, forKey: "radius")
        let large = try context.fetch(EntityFetchRequest(entityName: "Fruit", predicate: KeyValuePredicate(format: "radius > 4")))
        #expect(large.count == 1)
    }

    @Test(arguments: Kind.allCases) func deletesCascadeIntoTheStore(kind: Kind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (coordinator, context) = try Self.stocked(kind, directory)
        let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        context.delete(stand)
        #expect(context.deletedObjects.count == 8)
        try context.save()
        let fresh = ManagedObjectContext(coordinator: coordinator)
        #expect(try fresh.count(for: EntityFetchRequest(entityName: "Fruit")) == 0)
        #expect(try fresh.count(for: EntityFetchRequest(entityName: "Crate")) == 0)
    }

    @Test(arguments: Kind.allCases) func updatesReachTheStoreAndConflictsAreRefused(kind: Kind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (coordinator, first) = try Self.stocked(kind, directory)
        let second = ManagedObjectContext(coordinator: coordinator)
        let standA = try #require(try first.fetch(EntityFetchRequest(entityName: "Stand")).first)
        let standB = try #require(try second.fetch(EntityFetchRequest(entityName: "Stand")).first)
        _ = try standB.value(forKey: "name")   // read before the other save (a store may return faults)
        try standA.setValue("Market", forKey: "name")
        try first.save()
        let third = ManagedObjectContext(coordinator: coordinator)
        #expect(try third.fetch(EntityFetchRequest(entityName: "Stand")).first?.stored("name") as? String == "Market")
        try standB.setValue("Station", forKey: "name")
        // The default merge policy (error) throws the store's conflict as Apple's merge error.
        let error = #expect(throws: ManagedObjectMergeError.self) { try second.save() }
        #expect(error?.mergeConflicts.map(\.objectID) == [standB.objectID])
        #expect(second.hasChanges, "a refused save keeps the changes")
    }

    @Test(arguments: Kind.allCases) func objectIDsLeadBackToObjects(kind: Kind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (coordinator, context) = try Self.stocked(kind, directory)
        let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        let uri = stand.objectID.uriRepresentation()
        let other = ManagedObjectContext(coordinator: coordinator)
        let id = try #require(coordinator.managedObjectID(forURIRepresentation: uri))
        let found = try other.existingObject(with: id)
        #expect(found.stored("name") as? String == "Corner")
        #expect(try other.object(with: id) === found)
        context.delete(stand)
        try context.save()
        let late = ManagedObjectContext(coordinator: coordinator)
        #expect(throws: ManagedObjectContextError.objectNotFound(id)) { try late.existingObject(with: id) }
    }

    @Test(arguments: Kind.allCases) func lockedObjectsConflictWhenChangedElsewhere(kind: Kind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (coordinator, first) = try Self.stocked(kind, directory)
        let second = ManagedObjectContext(coordinator: coordinator)
        let stand = try #require(try first.fetch(EntityFetchRequest(entityName: "Stand")).first)
        _ = try stand.value(forKey: "name")
        let crate = try #require(try first.fetch(EntityFetchRequest(entityName: "Crate")).first)
        let mirror = try #require(try second.fetch(EntityFetchRequest(entityName: "Stand")).first)
        try mirror.setValue("Station", forKey: "name")
        try second.save()
        first.detectConflicts(for: stand)
        try crate.setValue("Z", forKey: "label")
        // The default merge policy (error) reports the locked object's conflict.
        let error = try #require(throws: ManagedObjectMergeError.self) { try first.save() }
        #expect(error.mergeConflicts.map(\.objectID) == [stand.objectID])
        let third = ManagedObjectContext(coordinator: coordinator)
        #expect(try third.fetch(EntityFetchRequest(entityName: "Crate")).allSatisfy { try $0.value(forKey: "label") as? String != "Z" })
    }
}
