import Foundation
import Testing
import Predicates
import ManagedObjects
@testable import PostgreSQLStore

/// The store's save checks, called directly (as two processes' stores would): versions under
/// row locks, uniqueness indexes, foreign objects.
@Suite struct StoreSaveTests {
    static func model() throws -> ManagedObjectModel {
        var book = EntityDescription(name: "Book", properties: [.attribute("isbn", .string), .attribute("pages", .integer64)])
        book.uniquenessConstraints = [["isbn"]]
        return try ManagedObjectModel(entities: [book])
    }

    static func loaded(_ database: TestDatabase) throws -> PostgreSQLPersistentStore {
        let store = database.store()
        try store.load(for: try model())
        return store
    }

    @Test func staleVersionsAreConflictsAndNothingIsWritten() throws {
        try TestDatabase.run { database in
            let first = try Self.loaded(database)
            let second = try Self.loaded(database)
            let id = try #require(try first.newObjectIDs(for: ["Book"]).first)
            let row = StoreRow(objectID: id, version: 0, attributes: ["isbn": .string("1"), "pages": .integer(10)])
            #expect(try first.save(StoreSaveChanges(inserted: [row])) == [id: 1])
            var update = row
            update.version = 1
            update.attributes["pages"] = .integer(20)
            #expect(try second.save(StoreSaveChanges(updated: [update])) == [id: 2])
            update.attributes["pages"] = .integer(30)   // still claims version 1
            #expect(throws: StoreSaveError.conflicts([StoreConflict(objectID: id, expectedVersion: 1, storeVersion: 2)])) {
                try first.save(StoreSaveChanges(updated: [update]))
            }
            #expect(throws: StoreSaveError.conflicts([StoreConflict(objectID: id, expectedVersion: 1, storeVersion: 2)])) {
                try first.save(StoreSaveChanges(deleted: [(id, 1)]))
            }
            let stored = try #require(try first.row(for: id))
            #expect(stored.version == 2 && stored.attributes["pages"] == .integer(20))
        }
    }

    @Test func aUniquenessIndexNamesTheObjectAndProperties() throws {
        try TestDatabase.run { database in
            let first = try Self.loaded(database)
            let second = try Self.loaded(database)
            let ids = try first.newObjectIDs(for: ["Book", "Book"])
            #expect(Set(ids).count == 2)
            _ = try first.save(StoreSaveChanges(inserted: [StoreRow(objectID: ids[0], version: 0, attributes: ["isbn": .string("9")])]))
            let duplicate = StoreRow(objectID: ids[1], version: 0, attributes: ["isbn": .string("9")])
            #expect(throws: StoreSaveError.uniquenessConstraint(ids[1], properties: ["isbn"])) {
                try second.save(StoreSaveChanges(inserted: [duplicate]))
            }
            // Inserting an existing object again is refused.
            let again = StoreRow(objectID: ids[0], version: 0, attributes: ["isbn": .string("10")])
            #expect(throws: StoreSaveError.self) { try second.save(StoreSaveChanges(inserted: [again])) }
            #expect(try second.fetch(StoreFetchRequest(entityNames: ["Book"])).rows.count == 1)
        }
    }

    @Test func objectsOfAnotherStoreAreRefused() throws {
        try TestDatabase.run { database in
            let store = try Self.loaded(database)
            let foreign = ManagedObjectID(entityName: "Book", storeIdentifier: "ELSEWHERE", primaryKey: 1)
            #expect(throws: StoreSaveError.self) {
                try store.save(StoreSaveChanges(inserted: [StoreRow(objectID: foreign, version: 0)]))
            }
            #expect(try store.row(for: foreign) == nil)
        }
    }

    @Test func aStoreUsedBeforeLoadingSaysSo() throws {
        try TestDatabase.run { database in
            #expect(throws: PostgreSQLStoreError.self) { try database.store().fetch(StoreFetchRequest(entityNames: ["Book"])) }
        }
    }
}
