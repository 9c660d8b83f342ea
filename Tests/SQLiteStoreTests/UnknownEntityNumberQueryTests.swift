import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// A table whose root has no subentities (so no `Z_ENT` index) is not scanned whole for rows
/// of unknown entity numbers: each query checks the rows it reads. Any fetch, count, ID fetch
/// or row lookup that reads such a row throws an error naming the file, table and number;
/// nothing is skipped in silence, and queries that read only known rows answer as before.
@Suite struct UnknownEntityNumberQueryTests {
    /// A library store with three items (keys 1–3, `small` 1, 2, 3), then a row of entity
    /// number 77 written into the items' table by another program (key 4, `small` 0).
    static func store(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("ForeignItems.sqlite")
        do {
            let (_, context) = try openStack(try Models.library(), at: url)
            for small in [Int16(1), 2, 3] { try context.insertNewObject(forEntityNamed: "Item").setValue(small, forKey: "small") }
            try context.save()
        }
        let writer = try SQLiteConnection(path: url.path, mode: .readWrite)
        try writer.run("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZSMALL) VALUES (4, 77, 1, 0)", [])
        try writer.run("UPDATE Z_PRIMARYKEY SET Z_MAX = 4 WHERE Z_NAME = 'Item'", [])
        return url
    }

    static func isUnknownNumber(_ error: any Error, path: String) -> Bool {
        UnknownEntityNumberTests.isUnknownNumber(error, path: path, table: "ZITEM")
    }

    static func request(_ format: String? = nil, sortedBy key: String? = nil, limit: Int = 0, offset: Int = 0) throws -> EntityFetchRequest {
        var request = EntityFetchRequest(entityName: "Item", predicate: try format.map { try KeyValuePredicate(format: $0) },
                                         sortDescriptors: key.map { [KeyValueSortDescriptor(key: $0)] } ?? [])
        request.fetchLimit = limit
        request.fetchOffset = offset
        return request
    }

    @Test func aFetchReadingThemThrowsNamingFileTableAndNumber() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.store(directory)
        let (_, context) = try openStack(try Models.library(), at: url)
        // The whole table, the stranger's own value, and an integer order (read without ORDER BY).
        for request in [try Self.request(), try Self.request("small == 0"), try Self.request("small < 2"),
                        try Self.request(sortedBy: "small")] {
            #expect { try context.fetch(request) } throws: { Self.isUnknownNumber($0, path: url.path) }
            #expect { try context.count(for: request) } throws: { Self.isUnknownNumber($0, path: url.path) }
            #expect { try context.fetchObjectIDs(request) } throws: { Self.isUnknownNumber($0, path: url.path) }
        }
        // Windows whose order (the stranger sorts first) reaches it. (A count of a window reads
        // rows in key order, whatever the sort: it stops before the stranger, at key 4, and
        // counts known rows only.)
        for request in [try Self.request(sortedBy: "small", limit: 1, offset: 1),
                        try Self.request("small >= 0", sortedBy: "small", limit: 2)] {
            #expect { try context.fetch(request) } throws: { Self.isUnknownNumber($0, path: url.path) }
            #expect { try context.fetchObjectIDs(request) } throws: { Self.isUnknownNumber($0, path: url.path) }
        }
        #expect(try context.count(for: try Self.request("small >= 0", sortedBy: "small", limit: 2)) == 2)
        #expect { try context.fetchBatched(try Self.request()) } throws: { Self.isUnknownNumber($0, path: url.path) }
        #expect(context.registeredObjects.isEmpty)
    }

    @Test func aFetchReadingOnlyKnownRowsAnswers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.store(directory)
        let (_, context) = try openStack(try Models.library(), at: url)
        let found = try context.fetch(try Self.request("small >= 2", sortedBy: "small"))
        #expect(try found.map { try $0.value(forKey: "small") as? Int16 } == [2, 3])
        #expect(try context.count(for: try Self.request("small == 1")) == 1)
    }

    @Test func aLookupOfTheirRowThrowsAndOthersRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.store(directory)
        let (store, context) = try openStack(try Models.library(), at: url)
        let stranger = ManagedObjectID(entityName: "Item", storeIdentifier: store.identifier, primaryKey: 4)
        let known = ManagedObjectID(entityName: "Item", storeIdentifier: store.identifier, primaryKey: 1)
        #expect { try context.existingObject(with: stranger) } throws: { Self.isUnknownNumber($0, path: url.path) }
        #expect { try store.rows(for: [known, stranger]) } throws: { Self.isUnknownNumber($0, path: url.path) }
        #expect { try store.row(for: stranger) } throws: { Self.isUnknownNumber($0, path: url.path) }
        #expect(try context.existingObject(with: known).value(forKey: "small") as? Int16 == 1)

        // Once the row is gone (deleted by whoever wrote it), the whole table reads again.
        let writer = try SQLiteConnection(path: url.path, mode: .readWrite)
        try writer.run("DELETE FROM ZITEM WHERE Z_ENT = 77", [])
        #expect(try context.fetch(try Self.request()).count == 3)
        #expect(try store.row(for: stranger) == nil)
    }

    @Test func theSightingBelongsToTheFailingStatementOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.store(directory)
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        let guarded = "SELECT t0.Z_PK FROM ZITEM t0 WHERE (t0.Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item') "
            + "OR \(SQLiteConnection.unknownEntityFunction)('ZITEM', t0.Z_ENT))"
        #expect { try connection.rows(guarded) } throws: { Self.isUnknownNumber($0, path: url.path) }
        // The next failing statement gets its own (SQLite's) error, not a leftover sighting.
        #expect { try connection.rows("SELECT nothing FROM ZITEM") } throws: { error in
            guard let error = error as? SQLiteStoreError, case .sqlite = error.code else { return false }
            return true
        }
        #expect(try connection.rows(guarded + " AND t0.Z_PK < 4").count == 3)
    }
}
