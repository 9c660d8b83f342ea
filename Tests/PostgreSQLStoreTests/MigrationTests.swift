import Foundation
import Testing
import ManagedObjects
import SQLCompiling
import TestSupport
@testable import PostgreSQLStore

/// Lightweight migration of a PostgreSQL store: the coordinator's rules, in one transaction.
@Suite struct MigrationTests {
    /// The shared library model, with a `Note` entity that v2 removes.
    static func v1() throws -> ManagedObjectModel { try LibraryMigrationModels.v1(withNotes: true) }

    /// v1 with `pages` renamed `pageCount`, `read` added (required, default NO), `Note`
    /// removed, `Magazine` added; `unique` puts a uniqueness constraint on `Book.title`.
    static func v2(unique: Bool = false) throws -> ManagedObjectModel { try LibraryMigrationModels.v2(unique: unique) }

    /// v1 with `pages` a string: not inferable.
    static func changedType() throws -> ManagedObjectModel {
        try LibraryMigrationModels.v1(pagesType: .string, withNotes: true)
    }

    static func description(_ database: TestDatabase, migrating: Bool = true) throws -> StoreDescription {
        var description = StoreDescription.postgreSQL(at: try #require(URL(string: database.url)), schema: database.schema)
        description.shouldMigrateStoreAutomatically = migrating
        description.shouldInferMappingModelAutomatically = migrating
        return description
    }

    /// A v1 store: a shelf holding "B" (300 pages) then "A" (twice when `duplicate`), a note.
    /// Returns the store's UUID.
    @discardableResult
    static func v1Store(_ database: TestDatabase, duplicate: Bool = false) throws -> String {
        let coordinator = PersistentStoreCoordinator(model: try v1())
        let store = try coordinator.addStore(with: try description(database))
        let context = ManagedObjectContext(coordinator: coordinator)
        let shelf = try context.insertNewObject(forEntityNamed: "Shelf")
        try shelf.setValue("Fiction", forKey: "label")
        var books: [ManagedObject] = []
        for (title, pages) in [("B", 300), ("A", nil)] + (duplicate ? [("A", 12)] : []) as [(String, Int32?)] {
            let book = try context.insertNewObject(forEntityNamed: "Book")
            try book.setValue(title, forKey: "title")
            if let pages { try book.setValue(pages, forKey: "pages") }
            books.append(book)
        }
        try shelf.setValue(books, forKey: "books")
        try context.insertNewObject(forEntityNamed: "Note").setValue("gone after v2", forKey: "text")
        try context.save()
        return store.identifier
    }

    /// Every table of the test's schema: its columns and rows.
    static func snapshot(_ database: TestDatabase) throws -> [String: [[String?]]] {
        let connection = try database.connection()
        var tables: [String: [[String?]]] = [:]
        let names = try connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = $1::text", [.text(database.schema)])
        for row in names.rows {
            let table = try #require(row[0])
            let columns = try connection.execute(
                "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1::text AND table_name = $2::text ORDER BY ordinal_position",
                [.text(database.schema), .text(table)])
            tables[table + " columns"] = columns.rows
            tables[table] = try connection.execute("SELECT * FROM \(SQLDialect.postgreSQL.quoted(table)) ORDER BY 1, 2").rows
        }
        tables["indexes"] = try connection.execute("SELECT indexname FROM pg_indexes WHERE schemaname = $1::text ORDER BY 1",
                                                   [.text(database.schema)]).rows
        return tables
    }

    @Test func aNewerModelMigratesTheTablesKeepingKeysOrderAndUUID() throws {
        try TestDatabase.run { database in
            let uuid = try Self.v1Store(database)
            let coordinator = PersistentStoreCoordinator(model: try Self.v2())
            let store = try coordinator.addStore(with: try Self.description(database), sourceModels: [try Self.v1()])
            #expect(store.identifier == uuid, "migrated in place: the same store")
            let context = ManagedObjectContext(coordinator: coordinator)
            let shelf = try #require(try context.fetch(EntityFetchRequest(entityName: "Shelf")).first)
            let books = try #require(shelf.stored("books") as? [ManagedObject])
            #expect(books.map { $0.stored("title") as? String } == ["B", "A"], "order kept")
            #expect(books.map { $0.stored("pageCount") as? Int32 } == [300, nil], "renamed attribute keeps its values")
            #expect(books.map { $0.stored("read") as? Bool } == [false, false], "new required attribute takes its default")
            #expect(books.map(\.objectID.referenceObject) == [.integer(1), .integer(2)], "keys kept")
            // New objects get keys past the kept ones; the new entity works; the removed one is gone.
            let book = try context.insertNewObject(forEntityNamed: "Book")
            try book.setValue("C", forKey: "title")
            try context.insertNewObject(forEntityNamed: "Magazine").setValue(Int16(7), forKey: "issue")
            try context.save()
            #expect(book.objectID.referenceObject == .integer(3))
            let check = try database.connection()
            #expect(try check.execute("SELECT to_regclass('\"ZNOTE\"') IS NULL").rows == [["t"]])
            #expect(try check.execute("SELECT \"ZPAGECOUNT\", \"ZREAD\" FROM \"ZBOOK\" ORDER BY \"Z_PK\"").rows
                    == [["300", "f"], [nil, "f"], [nil, "f"]])
            // Opened again with v2: no migration, the same data.
            let again = PersistentStoreCoordinator(model: try Self.v2())
            try again.addStore(with: try Self.description(database), sourceModels: [try Self.v1()])
            #expect(try ManagedObjectContext(coordinator: again).fetch(EntityFetchRequest(entityName: "Book")).count == 3)
        }
    }

    @Test func withoutTheMigrationOptionsANewerModelIsRefusedAndNothingChanges() throws {
        try TestDatabase.run { database in
            try Self.v1Store(database)
            let before = try Self.snapshot(database)
            let coordinator = PersistentStoreCoordinator(model: try Self.v2())
            #expect(throws: StoreManagementError.self) {
                try coordinator.addStore(with: try Self.description(database, migrating: false), sourceModels: [try Self.v1()])
            }
            #expect(throws: StoreManagementError.self) {
                try coordinator.addStore(with: try Self.description(database), sourceModels: [])   // no source model
            }
            #expect(try Self.snapshot(database) == before)
        }
    }

    @Test func anIncompatibleModelIsAThrownErrorLeavingTheDatabaseUntouched() throws {
        try TestDatabase.run { database in
            try Self.v1Store(database)
            let before = try Self.snapshot(database)
            let coordinator = PersistentStoreCoordinator(model: try Self.changedType())
            do {
                try coordinator.addStore(with: try Self.description(database), sourceModels: [try Self.v1()])
                Issue.record("a changed attribute type was migrated")
            } catch let error as StoreManagementError {
                #expect("\(error)".contains("pages"))
            }
            #expect(try Self.snapshot(database) == before)
            // Still a v1 store.
            let v1 = PersistentStoreCoordinator(model: try Self.v1())
            try v1.addStore(with: try Self.description(database))
            #expect(try ManagedObjectContext(coordinator: v1).fetch(EntityFetchRequest(entityName: "Book")).count == 2)
        }
    }

    @Test func aMigrationFailingHalfwayRollsEverythingBack() throws {
        try TestDatabase.run { database in
            try Self.v1Store(database, duplicate: true)
            let before = try Self.snapshot(database)
            // v2's uniqueness constraint on titles cannot hold: the migration fails after its
            // tables were dropped and recreated, inside its transaction.
            let coordinator = PersistentStoreCoordinator(model: try Self.v2(unique: true))
            #expect(throws: (any Error).self) {
                try coordinator.addStore(with: try Self.description(database), sourceModels: [try Self.v1()])
            }
            #expect(try Self.snapshot(database) == before)
            let v1 = PersistentStoreCoordinator(model: try Self.v1())
            try v1.addStore(with: try Self.description(database))
            #expect(try ManagedObjectContext(coordinator: v1).fetch(EntityFetchRequest(entityName: "Book")).count == 3)
        }
    }
}
