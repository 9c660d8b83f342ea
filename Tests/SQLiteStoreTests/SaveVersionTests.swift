import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// The SQLite store reports a save's new versions as a rule (every new row `Z_OPT` 1, every
/// updated row its version plus one) instead of a dictionary; a saving context and the row
/// cache set the versions from it. The versions must be those in the file, and the slow ways
/// (the public dictionary, unchanged objects left out, conflicts) must hold as before.
@Suite struct SaveVersionTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("title", .string), .attribute("rank", .integer64)]),
        ])
    }

    /// Three saved notes in a fresh store.
    static func stack(_ directory: TemporaryDirectory) throws -> (URL, PersistentStoreCoordinator, ManagedObjectContext, [ManagedObject]) {
        let url = directory.file("Notes.sqlite")
        let coordinator = PersistentStoreCoordinator(model: try model())
        try coordinator.addStore(SQLitePersistentStore(url: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        var notes: [ManagedObject] = []
        for index in 0..<3 {
            let note = try context.insertNewObject(forEntityNamed: "Note")
            try note.setValue("note \(index)", forKey: "title")
            try note.setValue(Int64(index), forKey: "rank")
            notes.append(note)
        }
        try context.save()
        return (url, coordinator, context, notes)
    }

    @Test func updatedObjectsTakeTheVersionsInTheFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (url, coordinator, context, notes) = try Self.stack(directory)
        #expect(notes.map(\.storeVersion) == [1, 1, 1])
        // Two rounds: the first and the third note changed twice, the second once.
        try notes[0].setValue(Int64(10), forKey: "rank")
        try notes[2].setValue("changed", forKey: "title")
        try context.save()
        try notes[0].setValue(Int64(20), forKey: "rank")
        try notes[1].setValue(Int64(21), forKey: "rank")
        try notes[2].setValue(Int64(22), forKey: "rank")
        try context.save()
        #expect(notes.map(\.storeVersion) == [3, 2, 3])
        #expect(try query(url, "SELECT Z_OPT, ZTITLE, ZRANK FROM ZNOTE ORDER BY Z_PK")
            == [[.integer(3), .text("note 0"), .integer(20)], [.integer(2), .text("note 1"), .integer(21)],
                [.integer(3), .text("changed"), .integer(22)]])
        // The row cache holds the same versions and values, and another context reads them.
        for note in notes {
            let row = try #require(coordinator.rowCache.row(for: note.objectID, maximumAge: -1))
            #expect(row.version == note.storeVersion)
        }
        let other = ManagedObjectContext(coordinator: coordinator)
        let seen = try other.existingObject(with: notes[2].objectID)
        #expect(try seen.value(forKey: "title") as? String == "changed")
        #expect(try seen.value(forKey: "rank") as? Int64 == 22)
        // A change made there saves against the version just written: no conflict.
        try seen.setValue(Int64(30), forKey: "rank")
        try other.save()
        #expect(try query(url, "SELECT Z_OPT, ZRANK FROM ZNOTE WHERE Z_PK = 3") == [[.integer(4), .integer(30)]])
    }

    @Test func anObjectSetBackToItsSavedValueIsNotWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (url, _, context, notes) = try Self.stack(directory)
        try notes[0].setValue(Int64(5), forKey: "rank")
        try notes[0].setValue(Int64(0), forKey: "rank")
        try notes[1].setValue(Int64(7), forKey: "rank")
        #expect(context.updatedObjects.count == 2)
        try context.save()
        // The first note's values equal its saved ones: no row written, its version unchanged.
        #expect(notes.map(\.storeVersion) == [1, 2, 1])
        #expect(try query(url, "SELECT Z_OPT FROM ZNOTE ORDER BY Z_PK") == [[.integer(1)], [.integer(2)], [.integer(1)]])
        #expect(!context.hasChanges)
    }

    @Test func theStoreStillAnswersEveryVersionThroughItsPublicSave() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (url, _, _, notes) = try Self.stack(directory)
        let store = SQLitePersistentStore(url: url)
        try PersistentStoreCoordinator(model: try Self.model()).addStore(store)
        let id = try #require(store.newObjectIDs(for: ["Note"]).first)
        let changed = StoreRow(objectID: notes[1].objectID, version: 1, attributes: ["title": .string("public"), "rank": .integer(1)])
        let versions = try store.save(StoreSaveChanges(inserted: [StoreRow(objectID: id, version: 0, attributes: ["title": .string("new")])],
                                                       updated: [changed]))
        #expect(versions == [id: 1, notes[1].objectID: 2])
        // The package answer: the same versions as a rule.
        let again = StoreRow(objectID: notes[1].objectID, version: 2, attributes: ["title": .string("again")])
        let saved = try store.saveReportingVersions(StoreSaveChanges(updated: [again]))
        #expect(saved.inserted == 1)
        #expect(saved.updated == nil)
        #expect(try query(url, "SELECT Z_OPT, ZTITLE FROM ZNOTE WHERE Z_PK = 2") == [[.integer(3), .text("again")]])
    }

    @Test func aRowChangedElsewhereIsStillAConflictAndNoVersionMoves() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (url, _, context, notes) = try Self.stack(directory)
        // Another coordinator changes the second note.
        let (_, elsewhere) = try openStack(try Self.model(), at: url)
        let copy = try elsewhere.existingObject(with: notes[1].objectID)
        try copy.setValue(Int64(99), forKey: "rank")
        try elsewhere.save()
        try notes[0].setValue(Int64(40), forKey: "rank")
        try notes[1].setValue(Int64(41), forKey: "rank")
        #expect(throws: ManagedObjectMergeError.self) { try context.save() }
        // Nothing was written by the failed save; the context's versions are those it read.
        #expect(notes.map(\.storeVersion) == [1, 1, 1])
        #expect(try query(url, "SELECT Z_OPT, ZRANK FROM ZNOTE ORDER BY Z_PK")
            == [[.integer(1), .integer(0)], [.integer(2), .integer(99)], [.integer(1), .integer(2)]])
        // The object's values win: the save goes through with the versions the file has then.
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        #expect(notes[0].storeVersion == 2)
        #expect(notes[1].storeVersion == 3)
        #expect(try query(url, "SELECT Z_OPT FROM ZNOTE ORDER BY Z_PK") == [[.integer(2)], [.integer(3)], [.integer(1)]])
    }

    @Test func deletingEveryFetchedObjectOfAnEntityWithoutRelationshipsRemovesEveryRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (url, _, _, _) = try Self.stack(directory)
        // A new coordinator: no cached rows.
        let (_, context) = try openStack(try Self.model(), at: url)
        var request = EntityFetchRequest(entityName: "Note")
        request.returnsObjectsAsFaults = true
        let faults = try context.fetch(request)
        #expect(faults.count == 3)
        for fault in faults { context.delete(fault) }
        // Delete rules and delete validation walk no slots (there is no relationship).
        #expect(context.deletedObjects.count == 3)
        try context.save()
        #expect(try query(url, "SELECT COUNT(*) FROM ZNOTE") == [[.integer(0)]])
        for fault in faults { #expect(fault.managedObjectContext == nil) }
    }
}
