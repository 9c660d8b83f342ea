import Foundation
import Testing
import KeyValueCoding
@testable import ManagedObjects
@testable import SQLiteStore

@Suite struct UnreadableValueTests {
    @Test func aValueThatDoesNotReadAsItsTypeIsAnErrorNotNil() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Stand.sqlite")
        do {
            let coordinator = PersistentStoreCoordinator(model: try ContextMatrixTests.fruitModel())
            try coordinator.addStore(SQLitePersistentStore(url: url))
            let context = ManagedObjectContext(coordinator: coordinator)
            let crate = try context.insertNewObject(forEntityNamed: "Crate")
            try crate.setValue("A", forKey: "label")
            let apple = try context.insertNewObject(forEntityNamed: "Apple")
            try apple.setValue(2.5, forKey: "radius")
            try context.save()
        }
        let connection = try SQLiteConnection(path: url.path, mode: .readWrite)
        try connection.execute("UPDATE ZFRUIT SET ZRADIUS = 'n/a'")
        let coordinator = PersistentStoreCoordinator(model: try ContextMatrixTests.fruitModel())
        try coordinator.addStore(SQLitePersistentStore(url: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        let error = try #require(throws: SQLiteStoreError.self) { try context.fetch(EntityFetchRequest(entityName: "Fruit")) }
        #expect(error.description.contains("radius"))
        #expect(try connection.scalar("SELECT ZRADIUS FROM ZFRUIT") == .text("n/a"), "nothing was overwritten")
    }
}

@Suite struct StoreCreationTests {
    @Test func aNewStoreAppearsWholeAndLeavesNoTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let coordinator = PersistentStoreCoordinator(model: try ContextMatrixTests.fruitModel())
        try coordinator.addStore(SQLitePersistentStore(url: directory.file("Stand.sqlite")))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(names.contains("Stand.sqlite"))
        #expect(!names.contains { $0.contains(".creating-") }, "\(names)")
        let connection = try SQLiteConnection(path: directory.file("Stand.sqlite").path, mode: .readOnly)
        #expect(try connection.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try connection.scalar("SELECT COUNT(*) FROM Z_METADATA") == .integer(1))
    }
}

@Suite struct TableNameCollisionTests {
    @Test(arguments: [["Movie", "MOVIE"], ["Straße", "STRASSE"], ["_PRIMARYKEY"], ["_METADATA"]])
    func entitiesWhoseTablesWouldCollideAreRefused(names: [String]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try ManagedObjectModel(entities: names.map { EntityDescription(name: $0, properties: [.attribute("t", .string)]) })
        let coordinator = PersistentStoreCoordinator(model: model)
        let url = directory.file("Clash.sqlite")
        let error = try #require(throws: SQLiteStoreError.self) { try coordinator.addStore(SQLitePersistentStore(url: url)) }
        #expect(error.description.contains("would share"))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
