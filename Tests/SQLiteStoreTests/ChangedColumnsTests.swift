import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// A save writes only the changed columns of an updated row (and `Z_OPT`), as Core Data does,
/// where the context knows which changed; every column where it does not (a primitive store,
/// a change made while loading); derived attributes always. Deleted rows go several per
/// statement, each still checked against the version the context read.
@Suite struct ChangedColumnsTests {
    static func model() throws -> ManagedObjectModel {
        var derived = AttributeDescription(name: "echo", type: .string)
        derived.derivationExpression = "title"
        return try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("title", .string), .attribute("rank", .integer64),
                                                         .attribute(derived)]),
        ])
    }

    /// A store with `count` saved notes, and a context holding them.
    static func stack(_ url: URL, notes count: Int = 1) throws -> (ManagedObjectContext, [ManagedObject]) {
        let (_, context) = try openStack(try model(), at: url)
        var notes: [ManagedObject] = []
        for index in 0..<count {
            let note = try context.insertNewObject(forEntityNamed: "Note")
            try note.setValue("note \(index)", forKey: "title")
            try note.setValue(Int64(index), forKey: "rank")
            notes.append(note)
        }
        try context.save()
        return (context, notes)
    }

    /// Changes a column behind the store's back, leaving `Z_OPT` as it is: a column a save
    /// writes takes the context's value again, one it leaves alone keeps this one.
    static func touchTitle(_ url: URL, _ title: String) throws {
        try SQLiteConnection(path: url.path, mode: .readWrite).run("UPDATE ZNOTE SET ZTITLE = ?", [.text(title)])
    }

    @Test func onlyTheChangedColumnsAreWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Notes.sqlite")
        let (context, notes) = try Self.stack(url)
        try Self.touchTitle(url, "outside")
        try notes[0].setValue(Int64(7), forKey: "rank")
        try context.save()
        // The derived column is written at every save (computed from the context's title).
        #expect(try query(url, "SELECT Z_OPT, ZTITLE, ZRANK, ZECHO FROM ZNOTE")
            == [[.integer(2), .text("outside"), .integer(7), .text("note 0")]])
        // A changed title is written, and the derived column with it.
        try notes[0].setValue("inside", forKey: "title")
        try context.save()
        #expect(try query(url, "SELECT Z_OPT, ZTITLE, ZRANK, ZECHO FROM ZNOTE")
            == [[.integer(3), .text("inside"), .integer(7), .text("inside")]])
    }

    @Test func aPrimitiveStoreMakesTheNextSaveWriteTheWholeRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Notes.sqlite")
        let (context, notes) = try Self.stack(url)
        try notes[0].setPrimitiveValue("primitive", forKey: "title")
        try Self.touchTitle(url, "outside")
        try notes[0].setValue(Int64(7), forKey: "rank")
        try context.save()
        #expect(try query(url, "SELECT Z_OPT, ZTITLE, ZRANK FROM ZNOTE") == [[.integer(2), .text("primitive"), .integer(7)]])
        // The whole row written, the next save writes the changed columns again.
        try Self.touchTitle(url, "outside")
        try notes[0].setValue(Int64(8), forKey: "rank")
        try context.save()
        #expect(try query(url, "SELECT Z_OPT, ZTITLE, ZRANK FROM ZNOTE") == [[.integer(3), .text("outside"), .integer(8)]])
    }

    @Test func aChangeMadeWhileRestoringMakesTheNextSaveWriteTheWholeRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Notes.sqlite")
        let (context, notes) = try Self.stack(url)
        // A change the context does not record (as one made while a fetch loads an object).
        context.isRestoring = true
        try notes[0].setValue("restored", forKey: "title")
        context.isRestoring = false
        #expect(!context.hasChanges)
        try notes[0].setValue(Int64(9), forKey: "rank")
        try context.save()
        #expect(try query(url, "SELECT ZTITLE, ZRANK FROM ZNOTE") == [[.text("restored"), .integer(9)]])
    }

    @Test(arguments: [MergePolicy.Kind.overwrite, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump])
    func aResolvedConflictWritesWhatThePolicyKeeps(policy: MergePolicy.Kind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Notes.sqlite")
        let (a, notes) = try Self.stack(url)
        // Another coordinator changes the title (Z_OPT 2); A, stale, changes the rank.
        let (_, b) = try openStack(try Self.model(), at: url)
        let theirs = try b.existingObject(with: notes[0].objectID)
        try theirs.setValue("theirs", forKey: "title")
        try b.save()
        try notes[0].setValue(Int64(5), forKey: "rank")
        a.mergePolicy = MergePolicy(kind: policy)
        try a.save()
        // Overwrite: the object's every value; by property: the store's title, A's rank.
        let title = policy == .overwrite ? "note 0" : "theirs"
        #expect(try query(url, "SELECT Z_OPT, ZTITLE, ZRANK FROM ZNOTE") == [[.integer(3), .text(title), .integer(5)]])
        #expect(try notes[0].value(forKey: "title") as? String == title)
    }

    @Test func deletesInBatchesStillReportEachConflict() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Notes.sqlite")
        // More notes than one statement deletes, at two versions.
        let (a, notes) = try Self.stack(url, notes: 150)
        for note in notes[100..<120] { try note.setValue(Int64(-1), forKey: "rank") }
        try a.save()
        // Another coordinator changes one note of the second batch.
        let (_, b) = try openStack(try Self.model(), at: url)
        let theirs = try b.existingObject(with: notes[70].objectID)
        try theirs.setValue("theirs", forKey: "title")
        try b.save()
        for note in notes { a.delete(note) }
        let error = #expect(throws: ManagedObjectMergeError.self) { try a.save() }
        #expect(error?.mergeConflicts.map(\.objectID) == [notes[70].objectID])
        #expect(try query(url, "SELECT COUNT(*) FROM ZNOTE") == [[.integer(150)]])
        // The delete wins: every row goes.
        a.mergePolicy = .mergeByPropertyObjectTrump
        try a.save()
        #expect(try query(url, "SELECT COUNT(*) FROM ZNOTE") == [[.integer(0)]])
    }

    @Test func deletesOfRowsAtSeveralVersionsRemoveEveryRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Notes.sqlite")
        let (context, notes) = try Self.stack(url, notes: 200)
        for (index, note) in notes.enumerated() where index % 3 == 0 { try note.setValue(Int64(-1), forKey: "rank") }
        try context.save()
        for note in notes[..<130] { context.delete(note) }
        try context.save()
        #expect(try query(url, "SELECT COUNT(*), MIN(Z_PK) FROM ZNOTE") == [[.integer(70), .integer(131)]])
    }
}
