import Foundation
import Testing
import Synchronization
import KeyValueCoding
import ManagedObjects
@testable import SQLiteStore

/// Objects saved through a context come back, in a new coordinator on the same file, with
/// the same values and relationships.
@Suite struct RoundTripTests {
    @Test func everyAttributeTypeRoundTrips() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        let when = Date(timeIntervalSinceReferenceDate: 639_503_569.5)
        let identity = try #require(UUID(uuidString: "FEFE4176-912D-429F-9C83-662FFF641115"))
        let link = try #require(URL(string: "https://example.com/a?b=1"))
        do {
            let (_, context) = try openStack(try Models.library(), at: url)
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue(Int16(-7), forKey: "small")
            try item.setValue(Int32(70_000), forKey: "medium")
            try item.setValue(Int64.max, forKey: "large")
            try item.setValue(true, forKey: "flag")
            try item.setValue(0.1, forKey: "ratio")
            try item.setValue(Float(2.5), forKey: "weight")
            try item.setValue(Decimal(string: "10.11"), forKey: "price")
            try item.setValue("Ünïcode ✓", forKey: "name")
            try item.setValue(when, forKey: "when")
            try item.setValue(Data([0, 1, 2, 255]), forKey: "bytes")
            try item.setValue(identity, forKey: "identity")
            try item.setValue(link, forKey: "link")
            try context.save()
            _ = try context.insertNewObject(forEntityNamed: "Item")  // every value nil
            try context.save()
        }
        let (_, context) = try openStack(try Models.library(), at: url)
        let items = try context.fetch(EntityFetchRequest(entityName: "Item"))
        #expect(items.count == 2)
        let full = try #require(items.first { $0.stored("name") != nil })
        #expect(full.stored("small") as? Int16 == -7)
        #expect(full.stored("medium") as? Int32 == 70_000)
        #expect(full.stored("large") as? Int64 == Int64.max)
        #expect(full.stored("flag") as? Bool == true)
        #expect(full.stored("ratio") as? Double == 0.1)
        #expect(full.stored("weight") as? Float == 2.5)
        #expect(full.stored("price") as? Decimal == Decimal(string: "10.11"))
        #expect(full.stored("name") as? String == "Ünïcode ✓")
        #expect(full.stored("when") as? Date == when)
        #expect(full.stored("bytes") as? Data == Data([0, 1, 2, 255]))
        #expect(full.stored("identity") as? UUID == identity)
        #expect(full.stored("link") as? URL == link)
        let empty = try #require(items.first { $0.stored("name") == nil })
        #expect(empty.stored("large") == nil)
        #expect(empty.stored("identity") == nil)

        // The file holds Core Data's representations.
        let stored = try query(url, "SELECT typeof(ZWHEN), ZWHEN, typeof(ZIDENTITY), length(ZIDENTITY), ZFLAG, typeof(ZPRICE), ZLINK FROM ZITEM WHERE ZNAME IS NOT NULL")
        #expect(stored.first == [.text("real"), .real(639_503_569.5), .text("blob"), .integer(16), .integer(1), .text("real"),
                                 .text("https://example.com/a?b=1")])
    }

    @Test func relationshipsRoundTripBothWaysWithOrderAndInheritance() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        do {
            let (_, context) = try openStack(try Models.library(), at: url)
            let shelf = try context.insertNewObject(forEntityNamed: "Shelf")
            try shelf.setValue("Fiction", forKey: "label")
            var books: [ManagedObject] = []
            for (title, entity) in [("C", "Novel"), ("A", "Book"), ("B", "Novel")] {
                let book = try context.insertNewObject(forEntityNamed: entity)
                try book.setValue(title, forKey: "title")
                books.append(book)
            }
            try shelf.setValue(books, forKey: "books")
            let tag = try context.insertNewObject(forEntityNamed: "Tag")
            try tag.setValue("classic", forKey: "name")
            try tag.setValue(Set([books[0], books[2]]), forKey: "books")
            try tag.setValue(books[1], forKey: "favourite")
            try context.save()
        }
        let (_, context) = try openStack(try Models.library(), at: url)
        let shelf = try #require(try context.fetch(EntityFetchRequest(entityName: "Shelf")).first)
        let books = try #require(shelf.stored("books") as? [ManagedObject])
        #expect(books.map { $0.stored("title") as? String } == ["C", "A", "B"])
        #expect(books.map(\.entity.name) == ["Novel", "Book", "Novel"])
        #expect(books.allSatisfy { ($0.stored("shelf") as? ManagedObject) === shelf })
        let tag = try #require(try context.fetch(EntityFetchRequest(entityName: "Tag")).first)
        let tagged = try #require(tag.stored("books") as? Set<ManagedObject>)
        #expect(Set(tagged.compactMap { $0.stored("title") as? String }) == ["C", "B"])
        #expect((tag.stored("favourite") as? ManagedObject)?.stored("title") as? String == "A")
        let novelTags = try #require(books[0].stored("tags") as? Set<ManagedObject>)
        #expect(novelTags.count == 1 && novelTags.first === tag)
        #expect(try context.fetch(EntityFetchRequest(entityName: "Book")).count == 3, "a Book fetch includes Novels")
        #expect(try context.fetch(EntityFetchRequest(entityName: "Novel")).count == 2)

        // On disk: ordered keys on the books, pairs in the join table.
        let order = try query(url, "SELECT ZTITLE, Z_FOK_SHELF FROM ZBOOK ORDER BY Z_FOK_SHELF")
        #expect(order.map { $0[0] } == [.text("C"), .text("A"), .text("B")])
        #expect(try query(url, "SELECT count(*) FROM Z_1TAGS") == [[.integer(2)]])
    }

    @Test func reorderingAndDeletingAreSaved() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        do {
            let (_, context) = try openStack(try Models.library(), at: url)
            let shelf = try context.insertNewObject(forEntityNamed: "Shelf")
            let tag = try context.insertNewObject(forEntityNamed: "Tag")
            var books: [ManagedObject] = []
            for title in ["A", "B", "C"] {
                let book = try context.insertNewObject(forEntityNamed: "Book")
                try book.setValue(title, forKey: "title")
                books.append(book)
            }
            try shelf.setValue(books, forKey: "books")
            try tag.setValue(Set(books), forKey: "books")
            try context.save()
            try shelf.setValue([books[2], books[0], books[1]], forKey: "books")
            context.delete(books[0])
            try context.save()
        }
        let (_, context) = try openStack(try Models.library(), at: url)
        let shelf = try #require(try context.fetch(EntityFetchRequest(entityName: "Shelf")).first)
        let books = shelf.stored("books") as? [ManagedObject] ?? []
        let titles = books.map { $0.stored("title") as? String }
        #expect(titles == ["C", "B"])
        let tag = try #require(try context.fetch(EntityFetchRequest(entityName: "Tag")).first)
        #expect((tag.stored("books") as? Set<ManagedObject>)?.count == 2)
        #expect(try query(url, "SELECT count(*) FROM ZBOOK") == [[.integer(2)]])
        #expect(try query(url, "SELECT count(*) FROM Z_1TAGS") == [[.integer(2)]], "the deleted book's pairs are gone")
    }

    @Test func updatesRaiseTheRowVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        let (_, context) = try openStack(try Models.library(), at: url)
        let item = try context.insertNewObject(forEntityNamed: "Item")
        try context.save()
        #expect(try query(url, "SELECT Z_OPT FROM ZITEM") == [[.integer(1)]])
        try item.setValue("x", forKey: "name")
        try context.save()
        try item.setValue("y", forKey: "name")
        try context.save()
        #expect(try query(url, "SELECT Z_OPT, ZNAME FROM ZITEM") == [[.integer(3), .text("y")]])
    }

    @Test func twoCoordinatorsOnOneFileConflict() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        let model = try Models.library()
        let (_, first) = try openStack(model, at: url)
        let item = try first.insertNewObject(forEntityNamed: "Item")
        try item.setValue("original", forKey: "name")
        try first.save()

        let (_, second) = try openStack(model, at: url)
        let mirror = try #require(try second.fetch(EntityFetchRequest(entityName: "Item")).first)
        try mirror.setValue("second", forKey: "name")
        try second.save()

        try item.setValue("first", forKey: "name")
        let error = #expect(throws: ManagedObjectMergeError.self) { try first.save() }
        let conflicts = error?.mergeConflicts ?? []
        #expect(conflicts.map(\.objectID) == [item.objectID])
        #expect(conflicts.first?.oldVersionNumber == 1 && conflicts.first?.newVersionNumber == 2)
        #expect(conflicts.first?.persistedSnapshot?.attributes["name"] == .string("second"))
        #expect(try query(url, "SELECT ZNAME FROM ZITEM") == [[.text("second")]], "nothing of the refused save is written")
    }

    @Test func keysComeFromTheRootCounterAcrossReopening() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        do {
            let (_, context) = try openStack(try Models.library(), at: url)
            _ = try context.insertNewObject(forEntityNamed: "Book")
            _ = try context.insertNewObject(forEntityNamed: "Novel")
            try context.save()
        }
        let (store, _) = try openStack(try Models.library(), at: url)
        let ids = try store.newObjectIDs(for: ["Novel", "Book", "Tag"])
        #expect(ids.map(\.referenceObject) == [.integer(3), .integer(4), .integer(1)])
        #expect(try query(url, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
            [.text("Book"), .integer(4)], [.text("Novel"), .integer(0)], [.text("Item"), .integer(0)],
            [.text("Shelf"), .integer(0)], [.text("Tag"), .integer(1)],
        ])
    }
}

@Suite struct ConcurrencyTests {
    @Test func keysFromManyThreadsAndTwoStoresAreUnique() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        let (first, _) = try openStack(try Models.library(), at: url)
        let (second, _) = try openStack(try Models.library(), at: url)
        let stores = [first, second]
        let keys = Mutex<[Int64]>([])
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            do {
                let ids = try stores[index % 2].newObjectIDs(for: ["Book", "Novel"])
                let found = ids.compactMap { id -> Int64? in
                    if case .integer(let key) = id.referenceObject { return key }
                    return nil
                }
                keys.withLock { $0 += found }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(keys.withLock { $0.sorted() } == Array(1...32))
    }
}
