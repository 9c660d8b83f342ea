import Foundation
import Testing
import KeyValueCoding
import Predicates
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

    /// Rows of an entity whose attributes all have exact types keep their slot values alone:
    /// they read the same constants (NULLs left out, extreme values kept), and objects filled
    /// from them hold the same values.
    @Test func rowsOfExactTypesReadTheSameFromTheirSlotValues() throws {
        try TestDatabase.run { database in
            let model = try ManagedObjectModel(entities: [
                EntityDescription(name: "Reading", properties: [
                    .attribute("small", .integer16), .attribute("medium", .integer32), .attribute("large", .integer64),
                    .attribute("flag", .boolean), .attribute("ratio", .double), .attribute("name", .string),
                    .attribute("when", .date),
                ]),
            ])
            let context = try StoreTests.context(database, model: model)
            let when = Date(timeIntervalSinceReferenceDate: -12_345.25)
            let full = try context.insertNewObject(forEntityNamed: "Reading")
            try full.setValue(Int16.min, forKey: "small")
            try full.setValue(Int32.max, forKey: "medium")
            try full.setValue(Int64.max, forKey: "large")
            try full.setValue(true, forKey: "flag")
            try full.setValue(-0.000_001_5, forKey: "ratio")
            try full.setValue("", forKey: "name")
            try full.setValue(when, forKey: "when")
            let sparse = try context.insertNewObject(forEntityNamed: "Reading")
            try sparse.setValue(Int32(-4), forKey: "medium")
            try sparse.setValue("née 'quoted'", forKey: "name")
            try context.save()

            let store = try #require(context.coordinator?.stores.first)
            let rows = try store.fetch(StoreFetchRequest(entityNames: ["Reading"])).rows
            let fullRow = try #require(rows.first { $0.objectID == full.objectID })
            #expect(fullRow.columns != nil)
            let expected: [String: KeyValueConstant] = ["small": .integer(Int64(Int16.min)), "medium": .integer(Int64(Int32.max)),
                                                        "large": .integer(Int64.max), "flag": .bool(true),
                                                        "ratio": .double(-0.000_001_5), "name": .string(""), "when": .date(when)]
            #expect(fullRow.attributes == expected)
            #expect(fullRow == StoreRow(objectID: full.objectID, version: fullRow.version, attributes: expected))
            let sparseRow = try #require(rows.first { $0.objectID == sparse.objectID })
            #expect(sparseRow.attributes == ["medium": .integer(-4), "name": .string("née 'quoted'")])
            #expect(sparseRow.attributeValue(named: "large") == nil && sparseRow.attributeValue(named: "medium") == .integer(-4))

            let other = try StoreTests.context(database, model: model)
            let fetched = try other.fetch(EntityFetchRequest(entityName: "Reading"))
            let object = try #require(fetched.first { $0.objectID == full.objectID })
            #expect(try object.value(forKey: "small") as? Int16 == Int16.min)
            #expect(try object.value(forKey: "medium") as? Int32 == Int32.max)
            #expect(try object.value(forKey: "large") as? Int64 == Int64.max)
            #expect(try object.value(forKey: "flag") as? Bool == true)
            #expect(try object.value(forKey: "ratio") as? Double == -0.000_001_5)
            #expect(try object.value(forKey: "name") as? String == "")
            #expect(try object.value(forKey: "when") as? Date == when)
            let other2 = try #require(fetched.first { $0.objectID == sparse.objectID })
            #expect(try other2.value(forKey: "large") == nil && other2.value(forKey: "medium") as? Int32 == -4)
        }
    }
}
