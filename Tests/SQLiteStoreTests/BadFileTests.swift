import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// Files that are not usable stores are refused with an error naming the file; they are
/// left as they were, and nothing crashes.
@Suite struct BadFileTests {
    /// Loads a store at `url` with the library model and returns the error's code.
    static func refusal(at url: URL, model: ManagedObjectModel? = nil) throws -> SQLiteStoreError.Code? {
        let coordinator = PersistentStoreCoordinator(model: try model ?? Models.library())
        let error = #expect(throws: SQLiteStoreError.self) { try coordinator.addStore(SQLitePersistentStore(url: url)) }
        #expect(error?.errorDescription?.contains(url.path) == true)
        return error?.code
    }

    /// Expects a refusal of `url` and the file's bytes unchanged.
    static func expectRefusedUntouched(_ url: URL, _ matches: (SQLiteStoreError.Code) -> Bool) throws {
        let before = try Data(contentsOf: url)
        let code = try refusal(at: url)
        #expect(code.map(matches) == true, "got \(String(describing: code))")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aTextFileIsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("notes.sqlite")
        try Data("just some text, longer than a header".utf8).write(to: url)
        try Self.expectRefusedUntouched(url) { if case .notADatabase = $0 { return true } else { return false } }
    }

    @Test func anEmptyFileIsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("empty.sqlite")
        try Data().write(to: url)
        try Self.expectRefusedUntouched(url) { $0 == .notADatabase("the file is empty") }
    }

    @Test func aDirectoryIsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(try Self.refusal(at: directory.url) == .notADatabase("it is a directory"))
    }

    @Test func aDatabaseWithoutCoreDataTablesIsNotAStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("other.sqlite")
        try SQLiteConnection(path: url.path, mode: .create).execute("CREATE TABLE things (x INTEGER)")
        try Self.expectRefusedUntouched(url) { $0 == .notAStore("it has no Z_PRIMARYKEY table") }
    }

    @Test(arguments: [
        ("NULL", "Z_METADATA has no metadata property list (Z_PLIST is NULL)"),
        ("x'62706c6973743030ffff'", "Z_METADATA.Z_PLIST cannot be read: not a binary property list"),
    ])
    func unusableMetadataIsNotAStore(plist: String, reason: String) throws {
        // NotesV7.storedata (LAYOUT.md §1) has a NULL Z_PLIST.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("notes.storedata")
        let connection = try SQLiteConnection(path: url.path, mode: .create)
        for statement in SQLiteSchema.bookkeepingStatements { try connection.execute(statement) }
        try connection.execute("INSERT INTO Z_METADATA VALUES (1, 'ABC', \(plist))")
        try Self.expectRefusedUntouched(url) { $0 == .notAStore(reason) }
    }

    @Test func aCorruptDatabaseThrows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("corrupt.sqlite")
        try Data("SQLite format 3\0".utf8 + Data(repeating: 0xA5, count: 4000)).write(to: url)
        let before = try Data(contentsOf: url)
        #expect(try Self.refusal(at: url) != nil)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aMissingTableOrColumnIsNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        _ = try openStack(try Models.library(), at: url)
        try SQLiteConnection(path: url.path, mode: .readWrite).execute("ALTER TABLE ZITEM DROP COLUMN ZRATIO")
        #expect(try Self.refusal(at: url) == .notAStore("table ZITEM has no column ZRATIO"))
    }

    @Test func aFileInAMissingDirectoryCannotBeCreated() throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/Library.sqlite")
        guard case .sqlite = try Self.refusal(at: url) else {
            Issue.record("expected SQLite's error")
            return
        }
    }

    @Test func aStoreUsedBeforeLoadingThrows() throws {
        let store = SQLitePersistentStore(url: URL(fileURLWithPath: "/tmp/never.sqlite"))
        #expect(throws: SQLiteStoreError(.notLoaded, path: "/tmp/never.sqlite")) {
            try store.fetch(StoreFetchRequest(entityNames: ["Item"]))
        }
        #expect(store.metadata.isEmpty)
    }

    @Test func aModelTheLayoutCannotHoldLeavesNoFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Odd.sqlite")
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Thing", properties: [.attribute("ref", .objectID)]),
        ])
        let coordinator = PersistentStoreCoordinator(model: model)
        let error = #expect(throws: SQLiteStoreError.self) { try coordinator.addStore(SQLitePersistentStore(url: url)) }
        #expect(error?.code == .unsupported("the ObjectID attribute Thing.ref"))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aValueOfTheWrongTypeIsRefusedAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        let (store, _) = try openStack(try Models.library(), at: url)
        let ids = try store.newObjectIDs(for: ["Item", "Item"])
        let good = StoreRow(objectID: ids[0], version: 0, attributes: ["name": .string("fine")])
        let bad = StoreRow(objectID: ids[1], version: 0, attributes: ["when": .string("not a date")])
        let error = #expect(throws: SQLiteStoreError.self) { try store.save(StoreSaveChanges(inserted: [good, bad])) }
        guard case .unsupported(let what) = error?.code else {
            Issue.record("expected unsupported, got \(String(describing: error))")
            return
        }
        #expect(what.contains("Item.when"))
        #expect(try query(url, "SELECT count(*) FROM ZITEM") == [[.integer(0)]])
    }
}
