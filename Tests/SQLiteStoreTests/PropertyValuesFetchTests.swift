import Foundation
import Testing
import TestSupport
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// `includesPropertyValues = false` on the SQLite store: the shared bodies of
/// TestSupport/PropertyValuesFetch on a temporary file (each coordinator opens its own store),
/// and what the store reads for them.
@Suite struct SQLitePropertyValuesFetchTests {
    static func run(_ body: (TestStoreFactory, URL) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Entries.sqlite")
        try body(TestStoreFactory("sqlite") { SQLitePersistentStore(url: url) }, url)
    }

    @Test func objectsAreFaultsUntilRead() throws {
        try Self.run { factory, _ in try PropertyValuesFetch.objectsAreFaultsUntilRead(factory) }
    }

    @Test func deletedFaultsSave() throws {
        try Self.run { factory, _ in try PropertyValuesFetch.deletedFaultsSave(factory) }
    }

    @Test func changedRowIsAConflict() throws {
        try Self.run { factory, _ in try PropertyValuesFetch.changedRowIsAConflict(factory) }
    }

    /// SQL decides the predicate: the store answers with keys and versions only, and nothing
    /// enters the row cache until a fault fires.
    @Test func onlyKeysAndVersionsAreRead() throws {
        try Self.run { factory, _ in
            let coordinator = try PropertyValuesFetch.stocked(factory)
            try PropertyValuesFetch.storeAnswersWithKeysAndVersions(coordinator)
            // A coordinator of its own: the save above left its rows in the first one's cache.
            let fresh = PersistentStoreCoordinator(model: coordinator.model)
            try fresh.addStore(try factory.open())
            let context = ManagedObjectContext(coordinator: fresh)
            let entries = try context.fetch(PropertyValuesFetch.faultsRequest(KeyValuePredicate(format: "rank >= 3")))
            #expect(entries.count == 2 && entries.allSatisfy { $0.isFault })
            #expect(entries.allSatisfy { fresh.rowCache.row(for: $0.objectID, maximumAge: -1) == nil })
            #expect(entries.map(\.storeVersion) == [1, 1])
            #expect(try entries[1].value(forKey: "name") as? String == "e4")
            #expect(fresh.rowCache.row(for: entries[1].objectID, maximumAge: -1) != nil, "the fired fault's row")
        }
    }

    /// A predicate SQL cannot decide (a block) makes the store read rows; the objects are
    /// faults all the same, their rows cached, and the predicate is evaluated on them.
    @Test func aPredicateSQLCannotDecideStillGivesFaults() throws {
        try Self.run { factory, _ in
            let coordinator = try PropertyValuesFetch.stocked(factory)
            let context = ManagedObjectContext(coordinator: coordinator)
            let odd = KeyValuePredicate(block: { object, _ in ((try? (object as? ManagedObject)?.value(forKey: "rank")) as? Int64 ?? 0) % 2 == 1 })
            var request = PropertyValuesFetch.faultsRequest(odd)
            request.sortDescriptors = []
            let entries = try context.fetch(request)
            #expect(try entries.map { try $0.value(forKey: "name") as? String } == ["e1", "e3"])
            let even = try ManagedObjectContext(coordinator: coordinator).fetch(PropertyValuesFetch.faultsRequest(!odd))
            #expect(even.count == 3)
        }
    }

    /// A fault made from an ID alone (no version known) deletes and saves: its row's version
    /// is read by the save.
    @Test func aFaultWithoutAVersionDeletes() throws {
        try Self.run { factory, url in
            let coordinator = try PropertyValuesFetch.stocked(factory)
            let ids = try ManagedObjectContext(coordinator: coordinator).fetchObjectIDs(EntityFetchRequest(entityName: "Entry"))
            let context = ManagedObjectContext(coordinator: coordinator)
            let fault = try context.object(with: ids[0])
            #expect(fault.isFault && fault.storeVersion == 0)
            context.delete(fault)
            try context.save()
            #expect(try query(url, "SELECT COUNT(*) FROM ZENTRY") == [[.integer(4)]])
        }
    }
}
