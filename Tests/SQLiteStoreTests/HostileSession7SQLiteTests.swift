import Foundation
import Testing
import ManagedObjects
import UndoManagement
@testable import SQLiteStore

// Hostile probes of session 7's lean saves on SQLite: implied versions (+1), shared updated
// rows in the row cache, unchanged objects skipped, conflicts across two coordinators on one
// file.
@Suite struct HostileSession7SQLiteTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("title", .string), .attribute("rank", .integer64)]),
        ])
    }

    static func stack(_ url: URL, history: Bool = false) throws -> (PersistentStoreCoordinator, ManagedObjectContext) {
        let coordinator = PersistentStoreCoordinator(model: try model())
        let store = SQLitePersistentStore(url: url, tracksPersistentHistory: history)
        try coordinator.addStore(store)
        return (coordinator, ManagedObjectContext(coordinator: coordinator))
    }

    @Test(arguments: [false, true])
    func conflictsAcrossTwoCoordinatorsKeepVersionsInStep(history: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Notes.sqlite")
        let (_, a) = try Self.stack(url, history: history)
        let note = try a.insertNewObject(forEntityNamed: "Note")
        try note.setValue("first", forKey: "title")
        try note.setValue(Int64(0), forKey: "rank")
        try a.save()
        let (_, b) = try Self.stack(url, history: history)
        let theirs = try b.existingObject(with: note.objectID)
        _ = try theirs.value(forKey: "title")
        // A writes (Z_OPT 2); B, stale, merges with its changes trumping (Z_OPT 3).
        try note.setValue(Int64(10), forKey: "rank")
        try a.save()
        b.mergePolicy = .mergeByPropertyObjectTrump
        try theirs.setValue("b", forKey: "title")
        try b.save()
        #expect(theirs.storeVersion == 3)
        #expect(try query(url, "SELECT Z_OPT, ZTITLE, ZRANK FROM ZNOTE") == [[.integer(3), .text("b"), .integer(10)]])
        // B saves again against the version it wrote: no conflict.
        try theirs.setValue(Int64(11), forKey: "rank")
        try b.save()
        #expect(try query(url, "SELECT Z_OPT, ZRANK FROM ZNOTE") == [[.integer(4), .integer(11)]])
        // A is stale now: the default policy reports the conflict and writes nothing.
        try note.setValue("a", forKey: "title")
        #expect(throws: ManagedObjectMergeError.self) { try a.save() }
        #expect(try query(url, "SELECT Z_OPT, ZTITLE FROM ZNOTE") == [[.integer(4), .text("b")]])
        // After a refresh A saves against the current version.
        a.refresh(note, mergeChanges: true)
        try a.save()
        #expect(note.storeVersion == 5)
        #expect(try query(url, "SELECT Z_OPT, ZTITLE, ZRANK FROM ZNOTE") == [[.integer(5), .text("a"), .integer(11)]])
        // Store trumps in B: B's stale change of rank loses, its version follows the file.
        b.mergePolicy = .mergeByPropertyStoreTrump
        try theirs.setValue(Int64(99), forKey: "rank")
        try theirs.setValue("b2", forKey: "title")
        try b.save()
        let rows = try query(url, "SELECT Z_OPT, ZTITLE, ZRANK FROM ZNOTE")
        #expect(rows.first?.first == .integer(theirs.storeVersion))
        try theirs.setValue(Int64(100), forKey: "rank")
        try b.save()
        #expect(try query(url, "SELECT Z_OPT, ZRANK FROM ZNOTE") == [[.integer(theirs.storeVersion), .integer(100)]])
    }

    @Test func rollbackPolicyThenSaveAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Notes.sqlite")
        let (_, a) = try Self.stack(url)
        let note = try a.insertNewObject(forEntityNamed: "Note")
        try note.setValue(Int64(1), forKey: "rank")
        try a.save()
        let (_, b) = try Self.stack(url)
        let theirs = try b.existingObject(with: note.objectID)
        try theirs.setValue(Int64(2), forKey: "rank")
        try b.save()
        a.mergePolicy = .rollback
        try note.setValue(Int64(3), forKey: "rank")
        try a.save()
        #expect(try note.value(forKey: "rank") as? Int64 == 2)
        try note.setValue(Int64(4), forKey: "rank")
        try a.save()
        #expect(try query(url, "SELECT Z_OPT, ZRANK FROM ZNOTE") == [[.integer(note.storeVersion), .integer(4)]])
    }

    @Test func aContextOfTheSameCoordinatorReadsTheUpdatedRowsFromTheCache() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Notes.sqlite")
        let (coordinator, a) = try Self.stack(url)
        var notes: [ManagedObject] = []
        for index in 0..<4 {
            let note = try a.insertNewObject(forEntityNamed: "Note")
            try note.setValue(Int64(index), forKey: "rank")
            notes.append(note)
        }
        try a.save()
        for (index, note) in notes.enumerated() { try note.setValue("t\(index)", forKey: "title") }
        try a.save()
        try notes[1].setValue("again", forKey: "title")
        try a.save()
        let b = ManagedObjectContext(coordinator: coordinator)
        for note in notes {
            let seen = try b.existingObject(with: note.objectID)
            #expect(try seen.value(forKey: "title") as? String == note.value(forKey: "title") as? String)
            #expect(seen.storeVersion == note.storeVersion)
            try seen.setValue(Int64(50), forKey: "rank")
        }
        try b.save()
        #expect(try query(url, "SELECT Z_OPT FROM ZNOTE ORDER BY Z_PK") == [[.integer(3)], [.integer(4)], [.integer(3)], [.integer(3)]])
    }

    @Test func undoAfterSaveWritesTheOldValue() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Notes.sqlite")
        let (_, a) = try Self.stack(url)
        a.undoManager = UndoHistory()
        let note = try a.insertNewObject(forEntityNamed: "Note")
        try note.setValue(Int64(1), forKey: "rank")
        try a.save()
        a.processPendingChanges()
        try note.setValue(Int64(2), forKey: "rank")
        a.processPendingChanges()
        try a.save()
        try a.undo()
        try a.save()
        #expect(try query(url, "SELECT Z_OPT, ZRANK FROM ZNOTE") == [[.integer(3), .integer(1)]])
        try a.redo()
        try a.save()
        #expect(try query(url, "SELECT Z_OPT, ZRANK FROM ZNOTE") == [[.integer(4), .integer(2)]])
        #expect(note.storeVersion == 4)
    }
}
