import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// Damaged bookkeeping and tables, read-only files and folders, NaN values, and fuzzed
/// copies of Apple-written stores: clear errors naming the file, files left as they were.
@Suite struct DamagedStoreTests {
    /// A library store with three items, closed.
    static func library(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("Library.sqlite")
        let (_, context) = try openStack(try Models.library(), at: url)
        for small in [Int16(1), 2, 3] { try context.insertNewObject(forEntityNamed: "Item").setValue(small, forKey: "small") }
        try context.save()
        return url
    }

    @Test(arguments: [
        ("UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Item'", "Z_PRIMARYKEY's key counter for Item is 1, below the largest key 3 in ZITEM"),
        ("UPDATE Z_PRIMARYKEY SET Z_MAX = NULL WHERE Z_NAME = 'Item'", "Z_PRIMARYKEY has no usable key counter (Z_MAX) for Item"),
        ("UPDATE Z_PRIMARYKEY SET Z_MAX = 'many' WHERE Z_NAME = 'Item'", "Z_PRIMARYKEY has no usable key counter (Z_MAX) for Item"),
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = 4 WHERE Z_NAME = 'Novel'", "Z_PRIMARYKEY gives Novel the parent number 4, not 1"),
        ("INSERT INTO Z_PRIMARYKEY VALUES (99, 'Item', 0, 0)", "Z_PRIMARYKEY lists the entity Item twice"),
    ])
    func aDamagedPrimaryKeyTableIsRefused(damage: String, reason: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.library(directory)
        try SQLiteConnection(path: url.path, mode: .readWrite).execute(damage)
        try BadFileTests.expectRefusedUntouched(url) { $0 == .notAStore(reason) }
    }

    @Test func insertingATakenKeyIsRefusedAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.library(directory)
        let coordinator = PersistentStoreCoordinator(model: try Models.library())
        let store = SQLitePersistentStore(url: url)
        try coordinator.addStore(store)
        let fresh = try store.newObjectIDs(for: ["Item"])[0]
        let taken = ManagedObjectID(entityName: "Item", storeIdentifier: store.identifier, primaryKey: 2)
        let rows = [StoreRow(objectID: fresh, version: 0, attributes: ["small": .integer(7)]),
                    StoreRow(objectID: taken, version: 0, attributes: ["small": .integer(8)])]
        #expect(throws: StoreSaveError.invalidObject(taken, reason: "a row with Z_PK 2 already exists in ZITEM")) {
            try store.save(StoreSaveChanges(inserted: rows))
        }
        #expect(try query(url, "SELECT ZSMALL FROM ZITEM ORDER BY Z_PK").compactMap { $0[0].integerValue } == [1, 2, 3])
    }

    @Test func aReadOnlyFileIsRefusedUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.library(directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path) }
        try BadFileTests.expectRefusedUntouched(url) { $0 == .unsupported("the file is read-only (stores open for reading and writing only)") }
    }

    @Test func aReadOnlyFolderIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.library(directory)
        let empty = directory.file("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        for folder in [directory.url, empty] {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        }
        defer {
            for folder in [directory.url, empty] {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            }
        }
        let reason = "its folder is read-only (SQLite creates the -wal and -shm files beside the store)"
        try BadFileTests.expectRefusedUntouched(url) { $0 == .unsupported(reason) }
        let new = empty.appendingPathComponent("New.sqlite")
        #expect(try BadFileTests.refusal(at: new) == .unsupported(reason))
        #expect(!FileManager.default.fileExists(atPath: new.path))
    }

    @Test func aDamagedTableGivesErrorsNamingTheFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Big.sqlite")
        let (_, context) = try openStack(try Models.library(), at: url)
        for index in 0..<400 {
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue("item \(index) " + String(repeating: "z", count: 100), forKey: "name")
        }
        try context.save()
        try SQLiteConnection(path: url.path, mode: .readWrite).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        // Overwrite the second half of the file (ZITEM's pages; the schema is on the first ones).
        var bytes = [UInt8](try Data(contentsOf: url))
        for index in (bytes.count / 2)..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try Data(bytes).write(to: url)
        let coordinator = PersistentStoreCoordinator(model: try Models.library())
        let store = SQLitePersistentStore(url: url)
        do {
            try coordinator.addStore(store)
            let error = #expect(throws: SQLiteStoreError.self) {
                _ = try ManagedObjectContext(coordinator: coordinator).fetch(EntityFetchRequest(entityName: "Item"))
            }
            #expect(error?.errorDescription?.contains(url.path) == true)
        } catch let error as SQLiteStoreError {
            #expect(error.errorDescription?.contains(url.path) == true)
        }
    }

    @Test func notANumberIsKeptAndComparedAsInMemory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("NaN.sqlite")
        let (_, context) = try openStack(try Models.library(), at: url)
        let item = try context.insertNewObject(forEntityNamed: "Item")
        try item.setValue(Double.nan, forKey: "ratio")
        try item.setValue(Float.nan, forKey: "weight")
        try context.save()
        let (_, reader) = try openStack(try Models.library(), at: url)
        let read = try #require(try reader.fetch(EntityFetchRequest(entityName: "Item")).first)
        #expect((read.stored("ratio") as? Double)?.isNaN == true)
        #expect((read.stored("weight") as? Float)?.isNaN == true)
        for format in ["ratio == nil", "ratio > 0", "ratio < 0", "ratio != 1", "weight == nil", "ratio BETWEEN {0, 1}"] {
            let predicate = try KeyValuePredicate(format: format)
            let expected = try predicate.evaluate(with: read)
            #expect(try reader.count(for: EntityFetchRequest(entityName: "Item", predicate: predicate)) == (expected ? 1 : 0), "\(format)")
        }
    }

    @Test func fuzzedAppleStoresOpenOrThrowAndTruncatedOnesToo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let original = try Data(contentsOf: try directory.copyOfFixture("mwkcoredata/MWKCoreDataTests2.sqlite"))
        let model = try AppleStoreTests.departmentModel()
        var generator = StoreFuzzTests.SeededGenerator(state: 1502)
        for round in 0..<40 {
            var bytes = [UInt8](original)
            if round % 4 == 3 {
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
            } else {
                for _ in 0..<(1 + round % 6) {
                    bytes[Int.random(in: 100..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            let url = directory.file("Fuzz\(round).sqlite")
            try Data(bytes).write(to: url)
            let coordinator = PersistentStoreCoordinator(model: model)
            do {
                try coordinator.addStore(SQLitePersistentStore(url: url))
                let context = ManagedObjectContext(coordinator: coordinator)
                for entity in ["Dept", "Employee"] {
                    for object in try context.fetch(EntityFetchRequest(entityName: entity)) { _ = object.stored("name") }
                }
            } catch let error as SQLiteStoreError {
                #expect(error.errorDescription?.contains(url.path) == true, "round \(round)")
            } catch {
                Issue.record("round \(round): an error that is not a store error: \(error)")
            }
        }
    }
}
