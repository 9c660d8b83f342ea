import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// A lightweight migration keeps the store's UUID (Apple keeps `NSStoreUUIDKey`), so object
/// URIs saved before the migration still resolve after it.
@Suite struct MigrationKeepsStoreUUIDTests {
    @Test func aURISavedBeforeAnSQLiteMigrationResolvesAfterIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try SQLiteMigrationTests.v1Store(directory)
        // The URI of book "A", saved (as text) by the app before the migration.
        let (store, context) = try openStack(try SQLiteMigrationTests.v1(), at: url)
        let oldUUID = store.identifier
        let request = EntityFetchRequest(entityName: "Book", predicate: try KeyValuePredicate(format: "title == 'A'"))
        let saved = try #require(try context.fetch(request).first).objectID.uriRepresentation().absoluteString

        let coordinator = PersistentStoreCoordinator(model: try SQLiteMigrationTests.v2())
        let migrated = try coordinator.addStore(with: SQLiteMigrationTests.migrating(url), sourceModels: [try SQLiteMigrationTests.v1()])
        #expect(migrated.identifier == oldUUID)
        #expect(migrated.metadata[StoreMetadata.storeUUIDKey] as? String == oldUUID)
        #expect(try query(url, "SELECT Z_UUID FROM Z_METADATA").first?.first == .text(oldUUID))
        let uri = try #require(URL(string: saved))
        let id = try #require(coordinator.managedObjectID(forURIRepresentation: uri))
        let book = try ManagedObjectContext(coordinator: coordinator).existingObject(with: id)
        #expect(try book.value(forKey: "title") as? String == "A")
        #expect(try book.value(forKey: "read") as? Bool == false)   // a v2 attribute: the migrated store's object
    }

    @Test func aURISavedBeforeAFileStoreMigrationResolvesAfterIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.store")
        var oldUUID = ""
        var saved = ""
        do {
            let coordinator = PersistentStoreCoordinator(model: try SQLiteMigrationTests.v1())
            let store = try coordinator.addStore(with: StoreDescription(type: AtomicFileStore.type, url: url))
            oldUUID = store.identifier
            let context = ManagedObjectContext(coordinator: coordinator)
            let book = try context.insertNewObject(forEntityNamed: "Book")
            try book.setValue("Kept", forKey: "title")
            try context.save()
            saved = book.objectID.uriRepresentation().absoluteString
        }
        var description = StoreDescription(type: AtomicFileStore.type, url: url)
        description.shouldMigrateStoreAutomatically = true
        description.shouldInferMappingModelAutomatically = true
        let coordinator = PersistentStoreCoordinator(model: try SQLiteMigrationTests.v2())
        let migrated = try coordinator.addStore(with: description, sourceModels: [try SQLiteMigrationTests.v1()])
        #expect(migrated.identifier == oldUUID)
        let uri = try #require(URL(string: saved))
        let id = try #require(coordinator.managedObjectID(forURIRepresentation: uri))
        #expect(try ManagedObjectContext(coordinator: coordinator).existingObject(with: id).value(forKey: "title") as? String == "Kept")
    }

    @Test func theUUIDOptionNamesANewStoreOnlyAndIsCheckedToBeAUUID() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let chosen = UUID().uuidString
        var description = StoreDescription.sqlite(at: directory.file("Chosen.sqlite"))
        description.options[StoreDescription.newStoreUUIDOption] = chosen
        let coordinator = PersistentStoreCoordinator(model: try SQLiteMigrationTests.v1())
        #expect(try coordinator.addStore(with: description).identifier == chosen)
        // An existing file keeps its own.
        let again = PersistentStoreCoordinator(model: try SQLiteMigrationTests.v1())
        description.options[StoreDescription.newStoreUUIDOption] = UUID().uuidString
        #expect(try again.addStore(with: description).identifier == chosen)
        // Not a UUID: ignored, the new store gets one of its own.
        var odd = StoreDescription.sqlite(at: directory.file("Odd.sqlite"))
        odd.options[StoreDescription.newStoreUUIDOption] = "not a uuid"
        let identifier = try PersistentStoreCoordinator(model: try SQLiteMigrationTests.v1()).addStore(with: odd).identifier
        #expect(UUID(uuidString: identifier) != nil)
    }
}
