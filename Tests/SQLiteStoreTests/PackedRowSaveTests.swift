import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// A context hands the SQLite store the rows of inserted and updated objects packed, when
/// every saved attribute is of a type whose constant gives back exactly the value; the file,
/// the versions, the row cache and the history read the same as with dictionary rows.
@Suite struct PackedRowSaveTests {
    /// Movie (plain attributes and a to-one), Studio (an ordered to-many), Poster (a UUID).
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Movie", properties: [
                .attribute("title", .string), .attribute("year", .integer64), .attribute("rating", .double),
                .attribute("seen", .boolean), .attribute("released", .date),
                .toOne("studio", "Studio", inverse: "movies"),
            ]),
            EntityDescription(name: "Studio", properties: [
                .attribute("name", .string), .toMany("movies", "Movie", inverse: "studio", ordered: true),
            ]),
            EntityDescription(name: "Poster", properties: [
                .attribute("caption", .string), .attribute("identity", .uuid),
            ]),
        ])
    }

    static func stack(at url: URL, history: Bool = false) throws -> (PersistentStoreCoordinator, ManagedObjectContext) {
        let coordinator = PersistentStoreCoordinator(model: try model())
        try coordinator.addStore(SQLitePersistentStore(url: url, tracksPersistentHistory: history))
        return (coordinator, ManagedObjectContext(coordinator: coordinator))
    }

    @Test func insertedAndUpdatedRowsArePackedAndReadBackTheSame() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let (coordinator, context) = try Self.stack(at: url)
        let studio = try context.insertNewObject(forEntityNamed: "Studio")
        try studio.setValue("Mirage", forKey: "name")
        let other = try context.insertNewObject(forEntityNamed: "Studio")
        try other.setValue("Orion", forKey: "name")
        let heat = try context.insertNewObject(forEntityNamed: "Movie")
        try heat.setValue("Heat", forKey: "title")
        try heat.setValue(Int64(1995), forKey: "year")
        try heat.setValue(true, forKey: "seen")
        try heat.setValue(Date(timeIntervalSinceReferenceDate: 1000), forKey: "released")
        try heat.setValue(studio, forKey: "studio")
        try context.save()

        let inserted = try #require(coordinator.rowCache.row(for: heat.objectID, maximumAge: -1))
        #expect(inserted.columns != nil)
        #expect(inserted.version == 1)
        #expect(inserted.attributes == ["title": .string("Heat"), "year": .integer(1995), "seen": .bool(true),
                                        "released": .date(Date(timeIntervalSinceReferenceDate: 1000))])
        #expect(inserted.relationships == ["studio": [studio.objectID]])
        let studioRow = try #require(coordinator.rowCache.row(for: studio.objectID, maximumAge: -1))
        #expect(studioRow.columns != nil)
        #expect(studioRow.relationships == ["movies": [heat.objectID]])

        try heat.setValue(8.3, forKey: "rating")
        try heat.setValue(nil, forKey: "released")
        try heat.setValue(other, forKey: "studio")
        try context.save()
        let updated = try #require(coordinator.rowCache.row(for: heat.objectID, maximumAge: -1))
        #expect(updated.columns != nil)
        #expect(updated.version == 2)
        #expect(updated.attributes == ["title": .string("Heat"), "year": .integer(1995), "seen": .bool(true), "rating": .double(8.3)])
        #expect(updated.relationships == ["studio": [other.objectID]])

        #expect(try query(url, "SELECT Z_OPT, ZTITLE, ZYEAR, ZRATING, ZSEEN, ZRELEASED, ZSTUDIO FROM ZMOVIE")
            == [[.integer(2), .text("Heat"), .integer(1995), .real(8.3), .integer(1), .null, .integer(2)]])

        // A new context fills the object from the cached packed row; a new coordinator from the file.
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let cached = try fresh.existingObject(with: heat.objectID)
        let (_, reopened) = try Self.stack(at: url)
        let read = try reopened.existingObject(with: heat.objectID)
        for movie in [cached, read] {
            #expect(movie.stored("title") as? String == "Heat")
            #expect(movie.stored("year") as? Int64 == 1995)
            #expect(movie.stored("rating") as? Double == 8.3)
            #expect(movie.stored("seen") as? Bool == true)
            #expect(movie.stored("released") == nil)
            #expect((movie.stored("studio") as? ManagedObject)?.stored("name") as? String == "Orion")
        }
        let orion = try reopened.existingObject(with: other.objectID)
        #expect((orion.stored("movies") as? [ManagedObject])?.map(\.objectID) == [heat.objectID])
    }

    @Test func anEntityWithAUUIDIsSavedWithDictionaryRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Posters.sqlite")
        let (coordinator, context) = try Self.stack(at: url)
        let poster = try context.insertNewObject(forEntityNamed: "Poster")
        let identity = UUID()
        try poster.setValue("one sheet", forKey: "caption")
        try poster.setValue(identity, forKey: "identity")
        try context.save()
        let row = try #require(coordinator.rowCache.row(for: poster.objectID, maximumAge: -1))
        #expect(row.columns == nil)
        let (_, reopened) = try Self.stack(at: url)
        let read = try reopened.existingObject(with: poster.objectID)
        #expect(read.stored("identity") as? UUID == identity)
        #expect(read.stored("caption") as? String == "one sheet")
    }

    /// `ACHANGE.ZCOLUMNS`: bit *n* for the *n*-th saved property by name (Movie: rating,
    /// released, seen, studio, title, year).
    @Test func updatedColumnBitsNameTheChangedPropertiesOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("History.sqlite")
        let (_, context) = try Self.stack(at: url, history: true)
        let studio = try context.insertNewObject(forEntityNamed: "Studio")
        let heat = try context.insertNewObject(forEntityNamed: "Movie")
        try heat.setValue("Heat", forKey: "title")
        try context.save()
        try heat.setValue(8.3, forKey: "rating")
        try heat.setValue(studio, forKey: "studio")
        try context.save()
        try heat.setValue(Int64(1995), forKey: "year")
        try context.save()
        let bits = try query(url, "SELECT ZCOLUMNS FROM ACHANGE WHERE ZCHANGETYPE = 1 AND ZENTITY = "
                             + "(SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Movie') ORDER BY Z_PK")
        let bytes = bits.map { row -> [UInt8] in
            if case .blob(let data) = row.first { return Array(data) }
            return []
        }
        #expect(bytes == [[0b0000_1001], [0b0010_0000]])
    }

    @Test func aConflictingPackedUpdateGoesThroughTheMergePolicy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Conflict.sqlite")
        let (coordinator, context) = try Self.stack(at: url)
        let heat = try context.insertNewObject(forEntityNamed: "Movie")
        try heat.setValue("Heat", forKey: "title")
        try heat.setValue(Int64(1995), forKey: "year")
        try context.save()
        let second = ManagedObjectContext(coordinator: coordinator)
        let copy = try second.existingObject(with: heat.objectID)
        try copy.setValue(Int64(1996), forKey: "year")
        try second.save()

        try heat.setValue("Heat (1995)", forKey: "title")
        #expect(throws: (any Error).self) { try context.save() }
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        #expect(try query(url, "SELECT Z_OPT, ZTITLE, ZYEAR FROM ZMOVIE") == [[.integer(3), .text("Heat (1995)"), .integer(1996)]])
    }
}
