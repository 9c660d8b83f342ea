import Foundation
import Testing
import Predicates
import ManagedObjects

/// A save's new rows are held once: the in-memory store keeps the save's array of rows (their
/// versions set first) where it can, the coordinator's row cache shares it, and a save of new
/// rows alone is entered in the cache when the cache is next used. Every answer stays as if
/// each had its own copy.
@Suite struct SharedSavedRowsTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("title", .string), .attribute("rank", .integer64)]),
        ])
    }

    static func stack() throws -> (ManagedObjectContext, InMemoryStore) {
        let coordinator = PersistentStoreCoordinator(model: try model())
        let store = InMemoryStore()
        try coordinator.addStore(store)
        return (ManagedObjectContext(coordinator: coordinator), store)
    }

    static func insertNotes(_ count: Int, into context: ManagedObjectContext, from first: Int = 0) throws -> [ManagedObject] {
        try (first..<first + count).map { index in
            let note = try context.insertNewObject(forEntityNamed: "Note")
            try note.setValue("note \(index)", forKey: "title")
            try note.setValue(Int64(index), forKey: "rank")
            return note
        }
    }

    /// The store's rows, the cache's rows and the objects agree after a first save (rows
    /// shared), and after later saves that add, change and delete rows (the store's array
    /// copied once, the cache's rows left as they were saved).
    @Test func storeAndCacheKeepTheirOwnAnswersAfterLaterSaves() throws {
        let (context, store) = try Self.stack()
        let cache = try #require(context.coordinator).rowCache
        let notes = try Self.insertNotes(4, into: context)
        try context.save()
        let ids = notes.map(\.objectID)
        for (index, id) in ids.enumerated() {
            let row = try #require(try store.row(for: id))
            #expect(row.version == 1)
            #expect(row.attributes["title"] == .string("note \(index)"))
            #expect(cache.row(for: id, maximumAge: -1)?.version == 1)
            #expect(cache.row(for: id, maximumAge: -1)?.attributes["rank"] == .integer(Int64(index)))
            #expect(notes[index].storeVersion == 1)
        }
        // A second save changes the store's rows: added, updated, deleted.
        let more = try Self.insertNotes(2, into: context, from: 4)
        try notes[1].setValue("changed", forKey: "title")
        context.delete(notes[2])
        try context.save()
        #expect(try store.row(for: ids[1])?.attributes["title"] == .string("changed"))
        #expect(try store.row(for: ids[1])?.version == 2)
        #expect(try store.row(for: ids[2]) == nil)
        #expect(try store.row(for: ids[0])?.attributes["title"] == .string("note 0"))
        for note in more { #expect(try store.row(for: note.objectID)?.version == 1) }
        #expect(cache.row(for: ids[1], maximumAge: -1)?.attributes["title"] == .string("changed"))
        #expect(cache.row(for: ids[2], maximumAge: -1) == nil)
        #expect(cache.row(for: ids[3], maximumAge: -1)?.attributes["title"] == .string("note 3"))
        // A fetch reads the store's rows by column.
        let request = EntityFetchRequest(entityName: "Note", predicate: try KeyValuePredicate(format: "rank >= 3"))
        let found = try context.fetch(request).compactMap { try $0.value(forKey: "rank") as? Int64 }.sorted()
        #expect(found == [3, 4, 5])
    }

    /// A new context reads the saved rows (its faults filled from the cache or the store).
    @Test func anotherContextReadsTheSharedRows() throws {
        let (context, _) = try Self.stack()
        let notes = try Self.insertNotes(3, into: context)
        try context.save()
        let other = ManagedObjectContext(coordinator: try #require(context.coordinator))
        for (index, note) in notes.enumerated() {
            let copy = try other.existingObject(with: note.objectID)
            #expect(try copy.value(forKey: "title") as? String == "note \(index)")
        }
        other.stalenessInterval = 0
        let fetched = try other.fetch(EntityFetchRequest(entityName: "Note"))
        #expect(fetched.count == 3)
    }

    /// The store's sharing save, refused (a new row whose ID is stored already), leaves the
    /// save's rows as they were; rows it cannot take as they are (keys that do not rise) are
    /// stored one by one.
    @Test func aRefusedSharingSaveLeavesTheRowsAndFallingKeysAreStoredToo() throws {
        let (context, store) = try Self.stack()
        let ids = try store.newObjectIDs(for: ["Note", "Note", "Note"])
        var first = StoreSaveChanges(inserted: [StoreRow(objectID: ids[0], version: 0, attributes: ["title": .string("a")])])
        _ = try store.saveReportingVersions(sharingInserted: &first)
        var refused = StoreSaveChanges(inserted: [StoreRow(objectID: ids[1], version: 0), StoreRow(objectID: ids[0], version: 0)])
        #expect(throws: StoreSaveError.self) { _ = try store.saveReportingVersions(sharingInserted: &refused) }
        #expect(refused.inserted.map(\.version) == [0, 0])
        #expect(try store.row(for: ids[1]) == nil)
        // Falling keys, into an entity with rows already and into another store's empty one.
        var falling = StoreSaveChanges(inserted: [StoreRow(objectID: ids[2], version: 0, attributes: ["title": .string("c")]),
                                                  StoreRow(objectID: ids[1], version: 0, attributes: ["title": .string("b")])])
        let saved = try store.saveReportingVersions(sharingInserted: &falling)
        #expect(saved.inserted == 1)
        #expect(try store.row(for: ids[1])?.attributes["title"] == .string("b"))
        #expect(try store.row(for: ids[2])?.version == 1)
        let empty = InMemoryStore()
        try context.coordinator?.addStore(empty, configuration: nil)
        let keys = try empty.newObjectIDs(for: ["Note", "Note"])
        var backwards = StoreSaveChanges(inserted: [StoreRow(objectID: keys[1], version: 0), StoreRow(objectID: keys[0], version: 0)])
        _ = try empty.saveReportingVersions(sharingInserted: &backwards)
        #expect(try empty.row(for: keys[0])?.version == 1)
        #expect(try empty.row(for: keys[1])?.version == 1)
        #expect(try empty.fetch(StoreFetchRequest(entityNames: ["Note"])).rows.count == 2)
    }

    /// New rows saved alone wait in the cache with the save's time: they age from then, and a
    /// later save's update or delete of one of them wins.
    @Test func newRowsSavedAloneAgeFromTheSaveAndLaterChangesWin() throws {
        let cache = RowCache()
        let ids = (1...3).map { ManagedObjectID(entityName: "Note", storeIdentifier: "S", primaryKey: $0) }
        var changes = StoreSaveChanges(inserted: ids.map { StoreRow(objectID: $0, version: 0, attributes: ["title": .string("new")]) })
        cache.store(saved: &changes, insertedVersion: 1, versions: [:])
        #expect(changes.inserted.isEmpty)
        cache.advanceClock(by: 10)
        #expect(cache.row(for: ids[0], maximumAge: 5) == nil)
        #expect(cache.row(for: ids[0], maximumAge: 20)?.version == 1)
        var later = StoreSaveChanges(updated: [StoreRow(objectID: ids[1], version: 1, attributes: ["title": .string("changed")])],
                                     deleted: [(ids[2], 1)])
        cache.store(saved: &later, insertedVersion: 1, versions: [:], updatedByOne: true)
        #expect(cache.row(for: ids[1], maximumAge: -1)?.attributes["title"] == .string("changed"))
        #expect(cache.row(for: ids[1], maximumAge: -1)?.version == 2)
        #expect(cache.row(for: ids[2], maximumAge: -1) == nil)
        #expect(cache.row(for: ids[0], maximumAge: -1)?.attributes["title"] == .string("new"))
        // Saved alone again, then removed before any look-up: gone.
        var again = StoreSaveChanges(inserted: ids.map { StoreRow(objectID: $0, version: 0) })
        cache.store(saved: &again, insertedVersion: 1, versions: [:])
        cache.remove([ids[0]])
        #expect(cache.row(for: ids[0], maximumAge: -1) == nil)
        #expect(cache.row(for: ids[2], maximumAge: -1)?.version == 1)
    }
}
