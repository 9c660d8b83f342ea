import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// The objects a fetch makes from the SQLite store's rows in a context with no registered
/// objects wait for their registry entries (``ManagedObjectContext/unindexedFetches``) until
/// the registry is used: every look-up, later fetch, save and the context's teardown still
/// see every registered object, each once.
@Suite struct FetchedRegistryEntryTests {
    static let model: ManagedObjectModel = {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Shelf", properties: [
                .attribute("label", .string),
                .toMany("books", "Book", inverse: "shelf"),
            ]),
            EntityDescription(name: "Book", properties: [
                .attribute("title", .string), .attribute("rank", .integer64),
                .toOne("shelf", "Shelf", inverse: "books"),
            ]),
            EntityDescription(name: "Note", properties: [.attribute("text", .string), .attribute("rank", .integer64)]),
        ])
    }()

    /// New notes of the ranks `ranks`, each with the text "note <rank>".
    @discardableResult
    func insertNotes(_ ranks: Range<Int>, into context: ManagedObjectContext) throws -> [ManagedObject] {
        try ranks.map { rank in
            let note = try context.insertNewObject(forEntityNamed: "Note")
            try note.setValue("note \(rank)", forKey: "text")
            try note.setValue(Int64(rank), forKey: "rank")
            return note
        }
    }

    /// A context on a new store with `count` notes (ranks 0…) and two shelves of three books
    /// each, saved by another context: nothing is registered in it. The context goes when
    /// this returns.
    @discardableResult
    func withStore<Result>(notes count: Int, _ body: (ManagedObjectContext) throws -> Result) throws -> Result {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Store.sqlite")
        try makeStore(at: url, notes: count)
        let (_, context) = try openStack(Self.model, at: url)
        return try body(context)
    }

    /// A store at `url` with `count` notes (ranks 0…) and two shelves of three books each.
    func makeStore(at url: URL, notes count: Int) throws {
        let (_, context) = try openStack(Self.model, at: url)
        try insertNotes(0..<count, into: context)
        for label in ["left", "right"] {
            let shelf = try context.insertNewObject(forEntityNamed: "Shelf")
            try shelf.setValue(label, forKey: "label")
            for rank in 0..<3 {
                let book = try context.insertNewObject(forEntityNamed: "Book")
                try book.setValue("\(label) \(rank)", forKey: "title")
                try book.setValue(Int64(rank), forKey: "rank")
                try book.setValue(shelf, forKey: "shelf")
            }
        }
        try context.save()
    }

    func notes(in context: ManagedObjectContext) throws -> [ManagedObject] {
        try context.fetch(EntityFetchRequest(entityName: "Note", sortDescriptors: [KeyValueSortDescriptor(key: "rank")]))
    }

    @Test func fetchedObjectsWaitForTheirEntriesAndAreFoundByID() throws {
        try withStore(notes: 40) { context in
            let notes = try notes(in: context)
            #expect(notes.map { $0.stored("rank") as? Int64 } == (0..<40).map { Int64($0) })
            // No entry made by the fetch: all forty wait, in the fetch's order.
            #expect(context.unindexedFetches.count == 40 && context.registeredByID.isEmpty)
            #expect(zip(context.unindexedFetches, notes).allSatisfy { $0 === $1 })
            #expect(notes.allSatisfy { $0.managedObjectContext === context && !$0.isFault })
            // The first look-up makes every entry.
            #expect(context.registeredObject(for: notes[17].objectID) === notes[17])
            #expect(context.unindexedFetches.isEmpty && context.registeredByID.count == 40)
            #expect(context.registeredObjects == Set(notes))
            for note in notes { #expect(try context.existingObject(with: note.objectID) === note) }
            // A second fetch finds the registered objects (uniquing).
            let again = try self.notes(in: context)
            #expect(again.count == 40 && zip(again, notes).allSatisfy { $0 === $1 })
        }
    }

    @Test func aSecondFetchFindsTheWaitingObjects() throws {
        try withStore(notes: 25) { context in
            let first = try notes(in: context)
            #expect(context.unindexedFetches.count == 25)
            // Nothing looked up between the fetches: the second one still gives the same objects.
            var request = EntityFetchRequest(entityName: "Note", predicate: try KeyValuePredicate(format: "rank >= 10"))
            request.sortDescriptors = [KeyValueSortDescriptor(key: "rank", ascending: false)]
            let second = try context.fetch(request)
            #expect(second.count == 15)
            #expect(second.allSatisfy { object in first.contains { $0 === object } })
            #expect(context.registeredObjects.count == 25)
        }
    }

    /// A fetch of faults (the store answers with IDs and versions) registers its objects as
    /// before; they are found by ID and fire right.
    @Test func faultsOfAFetchWithoutValuesAreRegistered() throws {
        try withStore(notes: 12) { context in
            var request = EntityFetchRequest(entityName: "Note", sortDescriptors: [KeyValueSortDescriptor(key: "rank")])
            request.includesPropertyValues = false
            let faults = try context.fetch(request)
            #expect(faults.count == 12 && faults.allSatisfy(\.isFault))
            #expect(context.registered.count == 12)
            #expect(faults[5].stored("text") as? String == "note 5")
            #expect(context.registeredObject(for: faults[9].objectID) === faults[9])
            #expect(context.registeredObjects == Set(faults))
        }
    }

    @Test func aSaveAfterAFetchKeepsEveryObjectOnce() throws {
        try withStore(notes: 10) { context in
            let fetched = try notes(in: context)
            #expect(context.unindexedFetches.count == 10)
            let inserted = try insertNotes(10..<15, into: context)
            try fetched[3].setValue("changed", forKey: "text")
            try context.save()
            // Every permanent ID names one object, the new ones included.
            let all = fetched + inserted
            #expect(Set(all.map(\.objectID)).count == 15 && all.allSatisfy { !$0.objectID.isTemporaryID })
            #expect(context.registeredObjects == Set(all))
            for object in all { #expect(context.registeredObject(for: object.objectID) === object) }
            let again = try notes(in: context)
            #expect(again.count == 15 && zip(again, all).allSatisfy { $0 === $1 })
            #expect(again[3].stored("text") as? String == "changed")
        }
    }

    @Test func aContextGoingAwayClearsItsChangesFromWaitingObjects() throws {
        // The context goes when `withStore` returns.
        let note = try withStore(notes: 8) { context in
            let notes = try notes(in: context)
            try notes[2].setValue("changed", forKey: "text")
            // The change looked nothing up: the entries still wait.
            #expect(context.unindexedFetches.count == 8 && context.registeredByID.isEmpty)
            #expect(notes[2].isUpdated && notes[2].committedRecord != nil && !notes[2].changeSetMembership.isEmpty)
            return notes[2]
        }
        // What the context left on its objects (change-set membership, committed values) goes
        // with it, waiting entries included.
        #expect(note.managedObjectContext == nil)
        #expect(note.changeSetMembership.isEmpty && note.committedRecord == nil)
        #expect(note.stored("text") as? String == "changed")
    }

    @Test func aContextGoingAwayCutsTheRelationshipsOfItsObjects() throws {
        let book = try withStore(notes: 0) { context in
            let books = try context.fetch(EntityFetchRequest(entityName: "Book", sortDescriptors: [KeyValueSortDescriptor(key: "title")]))
            #expect(books.count == 6)
            // Read once: the to-one holds its shelf.
            #expect((books[0].stored("shelf") as? ManagedObject)?.stored("label") as? String == "left")
            #expect(!books[0].hasFault(forRelationshipNamed: "shelf"))
            return books[0]
        }
        // Its objects' to-one relationships are cut (faults that cannot fire), which breaks
        // the cycles between them.
        #expect(book.managedObjectContext == nil)
        #expect(book.hasFault(forRelationshipNamed: "shelf"))
    }
}
