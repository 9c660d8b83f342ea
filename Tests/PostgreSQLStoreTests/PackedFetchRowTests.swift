import Foundation
import Testing
import KeyValueCoding
import ManagedObjects
@testable import PostgreSQLStore

/// The store answers fetches with packed rows (the attributes' constants and their slot values
/// in the entity's order): they read exactly as the dictionary rows did, relationships
/// included, and contexts fill objects from them with the same values.
@Suite struct PackedFetchRowTests {
    @Test func fetchedRowsArePackedAndReadTheSame() throws {
        try TestDatabase.run { database in
            let model = try StoreTests.library()
            let context = try StoreTests.context(database, model: model)
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue(Int32(70_000), forKey: "medium")
            try item.setValue(Float(2.5), forKey: "weight")
            try item.setValue("Ünïcode", forKey: "name")
            try item.setValue(Decimal(string: "10.11"), forKey: "price")
            try item.setValue(Int16(-7), forKey: "small")
            try item.setValue(Int64.min, forKey: "large")
            try item.setValue(false, forKey: "flag")
            try item.setValue(0.1, forKey: "ratio")
            try item.setValue(Date(timeIntervalSinceReferenceDate: 639_503_569.5), forKey: "when")
            let empty = try context.insertNewObject(forEntityNamed: "Item")
            let shelf = try context.insertNewObject(forEntityNamed: "Shelf")
            try shelf.setValue("Top", forKey: "label")
            let book = try context.insertNewObject(forEntityNamed: "Book")
            try book.setValue("Dune", forKey: "title")
            try book.setValue(shelf, forKey: "shelf")
            try context.save()

            let store = try #require(context.coordinator?.stores.first)
            let items = try store.fetch(StoreFetchRequest(entityNames: ["Item"])).rows
            let full = try #require(items.first { $0.objectID == item.objectID })
            #expect(full.columns != nil)
            #expect(full.attributes == ["medium": .integer(70_000), "weight": .double(2.5), "name": .string("Ünïcode"),
                                        "price": .decimal(Decimal(string: "10.11")!), "small": .integer(-7),
                                        "large": .integer(Int64.min), "flag": .bool(false), "ratio": .double(0.1),
                                        "when": .date(Date(timeIntervalSinceReferenceDate: 639_503_569.5))])
            #expect(full.attributeValue(named: "name") == .string("Ünïcode"))
            #expect(full.attributeValue(named: "bytes") == nil)
            let blank = try #require(items.first { $0.objectID == empty.objectID })
            #expect(blank.attributes.isEmpty)
            let books = try store.fetch(StoreFetchRequest(entityNames: ["Book"])).rows
            let bookRow = try #require(books.first)
            #expect(bookRow.columns != nil)
            #expect(bookRow.attributes == ["title": .string("Dune")])
            #expect(bookRow.relationships["shelf"] == [shelf.objectID])
            #expect(bookRow.relationships["tags"] == [])

            let other = try StoreTests.context(database, model: model)
            let fetched = try #require(try other.fetch(EntityFetchRequest(entityName: "Item")).first { $0.objectID == item.objectID })
            #expect(try fetched.value(forKey: "medium") as? Int32 == 70_000)
            #expect(try fetched.value(forKey: "weight") as? Float == 2.5)
            #expect(try fetched.value(forKey: "price") as? Decimal == Decimal(string: "10.11"))
            #expect(try fetched.value(forKey: "small") as? Int16 == -7)
            #expect(try fetched.value(forKey: "large") as? Int64 == Int64.min)
            #expect(try fetched.value(forKey: "flag") as? Bool == false)
            #expect(try fetched.value(forKey: "ratio") as? Double == 0.1)
            #expect(try fetched.value(forKey: "when") as? Date == Date(timeIntervalSinceReferenceDate: 639_503_569.5))
            #expect(try fetched.value(forKey: "identity") == nil)
            let fetchedBook = try #require(try other.fetch(EntityFetchRequest(entityName: "Book")).first)
            #expect((try fetchedBook.value(forKey: "shelf") as? ManagedObject)?.objectID == shelf.objectID)
            #expect(try fetchedBook.value(forKey: "title") as? String == "Dune")
        }
    }
}
