// Shared test bodies for fetches without property values (`includesPropertyValues = false`),
// run on every store kind by ManagedObjectsTests, SQLiteStoreTests and PostgreSQLStoreTests.
import Foundation
import Testing
import ManagedObjects
import Predicates

/// Fetches of faults: the objects come back as faults, firing one loads its values, deleting
/// unloaded faults saves, and the versions read with the IDs keep optimistic locking exact.
package enum PropertyValuesFetch {
    /// One entity without relationships (a delete then fires nothing).
    package static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Entry", properties: [.attribute("name", .string), .attribute("rank", .integer64)]),
        ])
    }

    /// A coordinator on a store of `factory` holding entries "e0"…"e4" (rank 0…4).
    package static func stocked(_ factory: TestStoreFactory) throws -> PersistentStoreCoordinator {
        let coordinator = try factory.coordinator(try model())
        let setup = ManagedObjectContext(coordinator: coordinator)
        for index in 0..<5 {
            let entry = try setup.insertNewObject(forEntityNamed: "Entry")
            try entry.setValue("e\(index)", forKey: "name")
            try entry.setValue(Int64(index), forKey: "rank")
        }
        try setup.save()
        return coordinator
    }

    /// A request for entries without their values.
    package static func faultsRequest(_ predicate: KeyValuePredicate? = nil) -> EntityFetchRequest {
        var request = EntityFetchRequest(entityName: "Entry", predicate: predicate, sortDescriptors: [KeyValueSortDescriptor(key: "rank")])
        request.includesPropertyValues = false
        return request
    }

    /// The entries' names in a context that reads the store.
    package static func names(_ coordinator: PersistentStoreCoordinator) throws -> [String] {
        let reader = ManagedObjectContext(coordinator: coordinator)
        reader.stalenessInterval = 0
        return try reader.fetch(EntityFetchRequest(entityName: "Entry", sortDescriptors: [KeyValueSortDescriptor(key: "rank")]))
            .map { try #require($0.value(forKey: "name") as? String) }
    }

    /// A store asked for faults, whose query decides the predicate, answers with the matching
    /// IDs and their versions alone.
    package static func storeAnswersWithKeysAndVersions(_ coordinator: PersistentStoreCoordinator) throws {
        let store = try #require(coordinator.stores.first)
        var request = StoreFetchRequest(entityNames: ["Entry"], predicate: try KeyValuePredicate(format: "rank >= 3"))
        request.includesPropertyValues = false
        let answer = try store.fetch(request)
        #expect(answer.rows.isEmpty && answer.objectIDs.count == 2 && answer.objectVersions == [1, 1])
        #expect(answer.appliedPredicate)
    }

    /// The objects are faults until read; reading one loads its values; a predicate and an
    /// order still apply; an object already loaded keeps its values (and unsaved change).
    package static func objectsAreFaultsUntilRead(_ factory: TestStoreFactory) throws {
        let coordinator = try stocked(factory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let loaded = try #require(try context.fetch(EntityFetchRequest(entityName: "Entry",
                                                                       predicate: KeyValuePredicate(format: "rank == 4"))).first)
        try loaded.setValue("changed", forKey: "name")
        try context.save()
        try loaded.setValue("unsaved", forKey: "name")
        // With an unsaved change the order is applied here, which loads the objects: no order.
        var request = faultsRequest(try KeyValuePredicate(format: "rank >= 2"))
        request.sortDescriptors = []
        let entries = try context.fetch(request)
        #expect(entries.count == 3, "\(factory)")
        #expect(entries.filter { $0.isFault }.count == 2, "\(factory): the two not loaded before are faults")
        #expect(entries.contains { $0 === loaded } && !loaded.isFault)
        let fault = try #require(entries.first { $0.isFault })
        #expect(try (fault.value(forKey: "rank") as? Int64).map { $0 == 2 || $0 == 3 } == true, "\(factory)")
        #expect(!fault.isFault, "\(factory): reading fired the fault")
        #expect(try Set(entries.map { try $0.value(forKey: "name") as? String }) == ["e2", "e3", "unsaved"], "\(factory)")
        // Everything, without a predicate, in the store's order (a context without changes).
        let clean = ManagedObjectContext(coordinator: coordinator)
        let all = try clean.fetch(faultsRequest())
        #expect(all.count == 5 && all.allSatisfy { $0.isFault }, "\(factory)")
        let names = try all.map { try $0.value(forKey: "name") as? String }
        #expect(names == ["e0", "e1", "e2", "e3", "changed"], "\(factory)")
    }

    /// Fetched as faults, deleted without being loaded, saved: the rows are gone, and the
    /// objects were never loaded.
    package static func deletedFaultsSave(_ factory: TestStoreFactory) throws {
        let coordinator = try stocked(factory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let entries = try context.fetch(faultsRequest(KeyValuePredicate(format: "rank < 3")))
        #expect(entries.count == 3, "\(factory)")
        for entry in entries { context.delete(entry) }
        #expect(entries.allSatisfy { $0.isFault }, "\(factory): a delete does not load the object")
        try context.save()
        #expect(try names(coordinator) == ["e3", "e4"], "\(factory)")
        #expect(context.registeredObjects.isEmpty)
    }

    /// A row another writer saved after the fetch is a merge conflict when the unloaded fault
    /// is deleted and saved; fetched again, the faults take the rows' new versions and delete
    /// without one.
    package static func changedRowIsAConflict(_ factory: TestStoreFactory) throws {
        let coordinator = try stocked(factory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let entries = try context.fetch(faultsRequest())
        #expect(entries.count == 5 && entries.allSatisfy { $0.isFault }, "\(factory)")
        // Another coordinator (another process) saves entry 1 after the fetch.
        let other = try factory.coordinator(try model())
        let writer = ManagedObjectContext(coordinator: other)
        let theirs = try #require(try writer.fetch(EntityFetchRequest(entityName: "Entry", predicate: KeyValuePredicate(format: "rank == 1"))).first)
        try theirs.setValue("theirs", forKey: "name")
        try writer.save()
        for entry in entries { context.delete(entry) }
        #expect(throws: ManagedObjectMergeError.self, "\(factory): entry 1 changed since the fetch") { try context.save() }
        #expect(try names(coordinator) == ["e0", "theirs", "e2", "e3", "e4"], "\(factory): nothing deleted")
        // Fetched again, the registered faults take the current versions.
        context.rollback()
        let again = try context.fetch(faultsRequest())
        #expect(again.count == 5)
        for entry in again where entry.objectID != theirs.objectID { context.delete(entry) }
        try context.save()
        #expect(try names(coordinator) == ["theirs"], "\(factory)")
    }
}
