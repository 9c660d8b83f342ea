import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// Rows whose `Z_ENT` names no entity of the model are not skipped in silence: a fetch or an
/// object lookup that reads their table throws an error naming the file, table and number.
@Suite struct UnknownEntityNumberTests {
    /// A library store with two books (keys 1 and 2), then a row of entity number 77 written
    /// into the books' table by another program (key 3).
    static func store(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("Foreign.sqlite")
        do {
            let (_, context) = try openStack(try Models.library(), at: url)
            for title in ["one", "two"] {
                let book = try context.insertNewObject(forEntityNamed: "Book")
                try book.setValue(title, forKey: "title")
            }
            _ = try context.insertNewObject(forEntityNamed: "Shelf")
            try context.save()
        }
        let writer = try SQLiteConnection(path: url.path, mode: .readWrite)
        try writer.run("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (3, 77, 1, 'stranger')", [])
        try writer.run("UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME = 'Book'", [])
        return url
    }

    /// Whether `error` is the unknown-number error for number 77 in `expected`, naming the file.
    static func isUnknownNumber(_ error: any Error, path: String, table expected: String = "ZBOOK") -> Bool {
        guard let error = error as? SQLiteStoreError, case .unknownEntityNumber(let table, let number) = error.code else { return false }
        let text = error.localizedDescription
        return table == expected && number == 77 && error.path == path
            && text.contains(path) && text.contains(expected) && text.contains("77")
    }

    @Test func aFetchMeetingThemThrowsNamingFileTableAndNumber() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.store(directory)
        let (_, context) = try openStack(try Models.library(), at: url)
        for request in [EntityFetchRequest(entityName: "Book"),
                        EntityFetchRequest(entityName: "Novel"),
                        EntityFetchRequest(entityName: "Book", predicate: try KeyValuePredicate(format: "title == 'one'"))] {
            #expect { try context.fetch(request) } throws: { Self.isUnknownNumber($0, path: url.path) }
            #expect { try context.count(for: request) } throws: { Self.isUnknownNumber($0, path: url.path) }
            #expect { try context.fetchObjectIDs(request) } throws: { Self.isUnknownNumber($0, path: url.path) }
        }
        // Other tables read as before.
        #expect(try context.fetch(EntityFetchRequest(entityName: "Shelf")).count == 1)
    }

    @Test func anObjectLookupMeetingThemThrows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.store(directory)
        let store = SQLitePersistentStore(url: url)
        let coordinator = PersistentStoreCoordinator(model: try Models.library())
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let stranger = ManagedObjectID(entityName: "Book", storeIdentifier: store.identifier, primaryKey: 3)
        #expect { try context.existingObject(with: stranger) } throws: { Self.isUnknownNumber($0, path: url.path) }
        let known = ManagedObjectID(entityName: "Book", storeIdentifier: store.identifier, primaryKey: 1)
        #expect { try context.existingObject(with: known) } throws: { Self.isUnknownNumber($0, path: url.path) }
        #expect { try store.rows(for: [known]) } throws: { Self.isUnknownNumber($0, path: url.path) }

        // Once the row is gone (deleted by whoever wrote it), the table reads again.
        let writer = try SQLiteConnection(path: url.path, mode: .readWrite)
        try writer.run("DELETE FROM ZBOOK WHERE Z_ENT = 77", [])
        #expect(try context.existingObject(with: known).value(forKey: "title") as? String == "one")
        #expect(try context.fetch(EntityFetchRequest(entityName: "Book")).count == 2)
    }
}
