import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// A save gathers the updated rows of each store in runs of objects of one store: with the
/// updated objects of two stores interleaved, each store still gets exactly its own rows, each
/// with the mask of its own changed columns, and each object its new version.
@Suite struct UpdatedRowRunTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("title", .string), .attribute("rank", .integer64)]),
            EntityDescription(name: "Tag", properties: [.attribute("label", .string), .attribute("weight", .integer64)]),
        ], configurations: ["Notes": ["Note"], "Tags": ["Tag"]])
    }

    @Test func interleavedStoresEachGetTheirOwnChangedColumns() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let notesURL = directory.file("Notes.sqlite")
        let tagsURL = directory.file("Tags.sqlite")
        let coordinator = PersistentStoreCoordinator(model: try Self.model())
        try coordinator.addStore(SQLitePersistentStore(url: notesURL), configuration: "Notes")
        try coordinator.addStore(SQLitePersistentStore(url: tagsURL), configuration: "Tags")
        let context = ManagedObjectContext(coordinator: coordinator)
        let count = 40
        var notes: [ManagedObject] = []
        var tags: [ManagedObject] = []
        // Inserted in alternation, each with its values set at once.
        for index in 0..<count {
            notes.append(try context.insertNewObject(forEntityNamed: "Note"))
            try notes[index].setValuesForKeys(["title": "note \(index)", "rank": Int64(index)])
            tags.append(try context.insertNewObject(forEntityNamed: "Tag"))
            try tags[index].setValuesForKeys(["label": "tag \(index)", "weight": Int64(index)])
        }
        try context.save()

        // Columns the saves must leave alone are changed behind the stores' backs.
        try SQLiteConnection(path: notesURL.path, mode: .readWrite).run("UPDATE ZNOTE SET ZTITLE = 'outside'")
        try SQLiteConnection(path: tagsURL.path, mode: .readWrite).run("UPDATE ZTAG SET ZWEIGHT = -1")
        // Changed in alternation: the updated objects of the two stores come mixed.
        for index in 0..<count {
            try notes[index].setValue(Int64(100 + index), forKey: "rank")
            try tags[index].setValue("label \(index)", forKey: "label")
        }
        try context.save()

        let noteRows = try query(notesURL, "SELECT Z_OPT, ZTITLE, ZRANK FROM ZNOTE ORDER BY ZRANK")
        #expect(noteRows == (0..<count).map { [.integer(2), .text("outside"), .integer(Int64(100 + $0))] })
        let tagRows = try query(tagsURL, "SELECT Z_OPT, ZLABEL, ZWEIGHT FROM ZTAG ORDER BY ZLABEL")
        let labels = (0..<count).map { "label \($0)" }.sorted()
        #expect(tagRows == labels.map { [.integer(2), .text($0), .integer(-1)] })

        // Each object took its new version: the next save of both is not a conflict (a weight
        // no tag has, so that every tag changes).
        for index in 0..<count {
            try notes[index].setValue("again \(index)", forKey: "title")
            try tags[index].setValue(Int64(700), forKey: "weight")
        }
        try context.save()
        #expect(try query(notesURL, "SELECT DISTINCT Z_OPT FROM ZNOTE") == [[.integer(3)]])
        #expect(try query(tagsURL, "SELECT DISTINCT Z_OPT, ZWEIGHT FROM ZTAG") == [[.integer(3), .integer(700)]])
    }
}
