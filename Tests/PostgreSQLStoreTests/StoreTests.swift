import Foundation
import Testing
import KeyValueCoding
import ManagedObjects
import Synchronization
@testable import PostgreSQLStore

/// The store through contexts: values, relationships, inheritance, loading, two coordinators.
@Suite struct StoreTests {
    static func library() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", properties: [
                .attribute("small", .integer16), .attribute("medium", .integer32), .attribute("large", .integer64),
                .attribute("flag", .boolean), .attribute("ratio", .double), .attribute("weight", .float),
                .attribute("price", .decimal), .attribute("name", .string), .attribute("when", .date),
                .attribute("bytes", .binaryData), .attribute("identity", .uuid), .attribute("link", .uri),
            ]),
            EntityDescription(name: "Shelf", properties: [
                .attribute("label", .string),
                .toMany("books", "Book", inverse: "shelf", ordered: true),
            ]),
            EntityDescription(name: "Book", properties: [
                .attribute("title", .string),
                .toOne("shelf", "Shelf", inverse: "books"),
                .toMany("tags", "Tag", inverse: "books"),
            ]),
            EntityDescription(name: "Novel", parent: "Book", properties: [.attribute("genre", .string)]),
            EntityDescription(name: "Tag", properties: [.attribute("name", .string), .toMany("books", "Book", inverse: "tags")]),
        ])
    }

    static func context(_ database: TestDatabase, model: ManagedObjectModel) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(database.store())
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test func everyAttributeTypeRoundTrips() throws {
        try TestDatabase.run { database in
            let model = try Self.library()
            let when = Date(timeIntervalSinceReferenceDate: 639_503_569.5)
            let identity = try #require(UUID(uuidString: "FEFE4176-912D-429F-9C83-662FFF641115"))
            let link = try #require(URL(string: "https://example.com/a?b=1"))
            do {
                let context = try Self.context(database, model: model)
                let item = try context.insertNewObject(forEntityNamed: "Item")
                try item.setValue(Int16(-7), forKey: "small")
                try item.setValue(Int32(70_000), forKey: "medium")
                try item.setValue(Int64.max, forKey: "large")
                try item.setValue(true, forKey: "flag")
                try item.setValue(0.1, forKey: "ratio")
                try item.setValue(Float(2.5), forKey: "weight")
                try item.setValue(Decimal(string: "10.11"), forKey: "price")
                try item.setValue("Ünïcode ✓ '; DROP TABLE \"ZITEM\"; --", forKey: "name")
                try item.setValue(when, forKey: "when")
                try item.setValue(Data([0, 1, 2, 255]), forKey: "bytes")
                try item.setValue(identity, forKey: "identity")
                try item.setValue(link, forKey: "link")
                _ = try context.insertNewObject(forEntityNamed: "Item")   // every value nil
                try context.save()
            }
            let context = try Self.context(database, model: model)
            let items = try context.fetch(EntityFetchRequest(entityName: "Item"))
            #expect(items.count == 2)
            let full = try #require(items.first { $0.stored("name") != nil })
            #expect(full.stored("small") as? Int16 == -7)
            #expect(full.stored("medium") as? Int32 == 70_000)
            #expect(full.stored("large") as? Int64 == Int64.max)
            #expect(full.stored("flag") as? Bool == true)
            #expect(full.stored("ratio") as? Double == 0.1)
            #expect(full.stored("weight") as? Float == 2.5)
            #expect(full.stored("price") as? Decimal == Decimal(string: "10.11"))
            #expect(full.stored("name") as? String == "Ünïcode ✓ '; DROP TABLE \"ZITEM\"; --")
            #expect(full.stored("when") as? Date == when)
            #expect(full.stored("bytes") as? Data == Data([0, 1, 2, 255]))
            #expect(full.stored("identity") as? UUID == identity)
            #expect(full.stored("link") as? URL == link)
            let empty = try #require(items.first { $0.stored("name") == nil })
            #expect(empty.stored("large") == nil)
            #expect(empty.stored("identity") == nil)
            // The layout: one table per inheritance root, Z-prefixed columns.
            let stored = try database.connection().execute("SELECT \"ZLARGE\", \"ZFLAG\", \"ZPRICE\", \"Z_OPT\" FROM \"ZITEM\" WHERE \"ZNAME\" IS NOT NULL").rows
            #expect(stored == [[String(Int64.max), "t", "10.11", "1"]])
        }
    }

    @Test func aStringWithANulCharacterIsAClearError() throws {
        try TestDatabase.run { database in
            let context = try Self.context(database, model: try Self.library())
            try context.insertNewObject(forEntityNamed: "Item").setValue("a\u{0}b", forKey: "name")
            #expect(throws: PostgreSQLStoreError.self) { try context.save() }
        }
    }

    @Test func relationshipsRoundTripBothWaysWithOrderAndInheritance() throws {
        try TestDatabase.run { database in
            let model = try Self.library()
            do {
                let context = try Self.context(database, model: model)
                let shelf = try context.insertNewObject(forEntityNamed: "Shelf")
                try shelf.setValue("Fiction", forKey: "label")
                let tag = try context.insertNewObject(forEntityNamed: "Tag")
                try tag.setValue("classic", forKey: "name")
                var books: [ManagedObject] = []
                for (title, entity) in [("C", "Novel"), ("A", "Book"), ("B", "Novel")] {
                    let book = try context.insertNewObject(forEntityNamed: entity)
                    try book.setValue(title, forKey: "title")
                    try book.setValue(shelf, forKey: "shelf")
                    books.append(book)
                }
                try books[0].setValue("gothic", forKey: "genre")
                try tag.setValue(Set([books[0], books[1]]), forKey: "books")
                try context.save()
            }
            let context = try Self.context(database, model: model)
            let shelf = try #require(try context.fetch(EntityFetchRequest(entityName: "Shelf")).first)
            let ordered = try #require(try shelf.value(forKey: "books") as? [ManagedObject])
            #expect(try ordered.map { try $0.value(forKey: "title") as? String } == ["C", "A", "B"])
            #expect(ordered.map(\.objectID.entityName) == ["Novel", "Book", "Novel"])
            #expect(try ordered.allSatisfy { try $0.value(forKey: "shelf") as? ManagedObject === shelf })
            #expect(try ordered[0].value(forKey: "genre") as? String == "gothic")
            let novels = try context.fetch(EntityFetchRequest(entityName: "Novel"))
            #expect(novels.count == 2)
            #expect(try context.fetch(EntityFetchRequest(entityName: "Book")).count == 3, "subentities included")
            let tag = try #require(try context.fetch(EntityFetchRequest(entityName: "Tag")).first)
            let tagged = try #require(try tag.value(forKey: "books") as? Set<ManagedObject>)
            #expect(Set(try tagged.map { try $0.value(forKey: "title") as? String }) == ["C", "A"])
            #expect(try (ordered[1].value(forKey: "tags") as? Set<ManagedObject>)?.count == 1)
            // Keys are counted per inheritance root: books and novels never share one.
            let keys = try context.fetch(EntityFetchRequest(entityName: "Book")).map(\.objectID.referenceObject)
            #expect(Set(keys).count == 3)
        }
    }

    @Test func aChangedModelIsRefusedNamingTheEntities() throws {
        try TestDatabase.run { database in
            _ = try Self.context(database, model: try Self.library())
            let other = try ManagedObjectModel(entities: [EntityDescription(name: "Item", properties: [.attribute("name", .string)])])
            do {
                try database.store().load(for: other)
                Issue.record("loaded a store of another model")
            } catch let error as PostgreSQLStoreError {
                guard case .incompatibleModel(let entities) = error.code else { Issue.record("wrong error \(error)"); return }
                #expect(entities.contains("Item") && entities.contains("Shelf"))
            }
            // The same model opens, with the same identifier.
            let first = database.store()
            try first.load(for: try Self.library())
            let second = database.store()
            try second.load(for: try Self.library())
            #expect(first.identifier == second.identifier && !first.identifier.isEmpty)
            #expect(first.metadata["NSStoreType"] as? String == "PostgreSQL")
        }
    }

    @Test func twoCoordinatorsOnOneDatabaseReportConflictsAndLoseNoWrite() throws {
        try TestDatabase.run { database in
            let model = try Self.library()
            let a = try Self.context(database, model: model)
            let item = try a.insertNewObject(forEntityNamed: "Item")
            try item.setValue(Int64(1), forKey: "large")
            try a.save()
            let b = try Self.context(database, model: model)   // another "process": its own connection
            let other = try #require(try b.fetch(EntityFetchRequest(entityName: "Item")).first)
            try item.setValue(Int64(2), forKey: "large")
            try a.save()
            try other.setValue(Int64(3), forKey: "large")
            #expect(throws: (any Error).self) { try b.save() }   // the default policy reports the conflict
            b.mergePolicy = MergePolicy(kind: .mergeByPropertyObjectTrump)
            try b.save()
            let check = try Self.context(database, model: model)
            let saved = try #require(try check.fetch(EntityFetchRequest(entityName: "Item")).first)
            #expect(saved.stored("large") as? Int64 == 3)
            #expect(saved.storeVersion == 3, "both writes went through, one after the other")
        }
    }

    @Test func registeredTypeOpensFromADescription() throws {
        try TestDatabase.run { database in
            let url = try #require(URL(string: database.url))
            let description = StoreDescription.postgreSQL(at: url, schema: database.schema)
            #expect(PersistentStoreCoordinator.registeredStoreTypes.contains("PostgreSQL"))
            let coordinator = PersistentStoreCoordinator(model: try Self.library())
            let store = try coordinator.addStore(with: description)
            #expect(store.storeType == "PostgreSQL")
        }
    }
    @Test func storesCreatingTheirSchemaAtOnceAllLoad() throws {
        // Several rounds: each on a schema nobody made yet, created by six threads at once.
        for _ in 0..<3 {
            try TestDatabase.run { database in
                let model = try Self.library()
                let failures = Mutex<[String]>([])
                DispatchQueue.concurrentPerform(iterations: 6) { index in
                    do {
                        _ = try Self.context(database, model: model)
                    } catch {
                        failures.withLock { $0.append("thread \(index): \(error)") }
                    }
                }
                #expect(failures.withLock { $0 } == [])
                let check = try Self.context(database, model: model)
                #expect(try check.count(for: EntityFetchRequest(entityName: "Item")) == 0)
            }
        }
    }
    @Test func theLoadingLockIsPerSchema() throws {
        try TestDatabase.run { held in
            try TestDatabase.run { other in
                let model = try Self.library()
                // Another process in the middle of loading `held`: it holds that schema's loading lock.
                let holder = try held.connection()
                try holder.execute("BEGIN")
                try holder.execute(PostgreSQLPersistentStore.loadingLockSQL)
                let quick = PostgreSQLStoreOptions(statementTimeout: .milliseconds(200))
                let waiting = PersistentStoreCoordinator(model: model)
                do {
                    try waiting.addStore(PostgreSQLPersistentStore(url: held.url, schema: held.schema, options: quick))
                    Issue.record("the same schema must wait for the lock")
                } catch {
                    #expect("\(error)".contains("pg_advisory_xact_lock"), "cancelled by the statement timeout while waiting for the lock: \(error)")
                }
                let elsewhere = PersistentStoreCoordinator(model: model)
                try elsewhere.addStore(PostgreSQLPersistentStore(url: other.url, schema: other.schema, options: quick))
                try holder.execute("COMMIT")
                _ = try Self.context(held, model: model)   // the lock is free again
            }
        }
    }
}
