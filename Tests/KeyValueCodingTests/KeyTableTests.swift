import Foundation
import Testing
@testable import KeyValueCoding

/// One generic class serving several schemas: its values live in an array, its keys come from
/// the schema's key table (the shape of a managed object serving several entities).
final class Record: KeyValueKeyTableProviding {
    let schema: RecordSchema
    var values: [Any?]

    init(_ schema: RecordSchema) {
        self.schema = schema
        values = schema.defaults
    }

    var keyValueKeyTable: KeyValueKeyTable { schema.table }
}

/// The keys of one kind of record, each backed by a slot of `Record.values`.
final class RecordSchema: Sendable {
    let table: KeyValueKeyTable
    nonisolated(unsafe) let defaults: [Any?]

    init(_ fields: [(key: String, make: @Sendable (Int) -> KeyValueProperty, initial: Any?)],
         validators: [String: KeyValueValidator] = [:]) {
        table = KeyValueKeyTable(properties: fields.enumerated().map { $0.element.make($0.offset) },
                                 validators: validators)
        defaults = fields.map(\.initial)
    }

    static func slot<Value>(_ key: String, _: Value.Type, at index: Int) -> KeyValueProperty {
        KeyValueProperty(key: key, type: Value.self,
                         get: { ($0 as! Record).values[index] as! Value },
                         set: { ($0 as! Record).values[index] = $1 })
    }

    static let book = RecordSchema([
        ("title", { slot("title", String.self, at: $0) }, ""),
        ("pages", { slot("pages", Int.self, at: $0) }, 0),
        ("price", { slot("price", Double?.self, at: $0) }, Double?.none),
        ("author", { slot("author", Record?.self, at: $0) }, Record?.none),
        ("isbn", { index in KeyValueProperty(key: "isbn", type: String.self,
                                             get: { ($0 as! Record).values[index] as! String }) }, "978"),
    ], validators: ["pages": { value in
        guard let pages = value as? Int, pages >= 0 else { throw KeyValueValidationError("negative") }
    }])

    static let author = RecordSchema([
        ("name", { slot("name", String.self, at: $0) }, ""),
        ("title", { index in KeyValueProperty(key: "title", type: String.self,
                                              get: { "Dr. " + (($0 as! Record).values[index - 1] as! String) }) }, ""),
    ])
}

@Suite("Per-object key tables and accessor properties")
struct KeyTableTests {
    @Test func readsAndWritesThroughAccessors() throws {
        let book = Record(.book)
        try book.setValue("Dune", forKey: "title")
        try book.setValue(412.0, forKey: "pages")       // numbers bridge: Double → Int
        try book.setValue(9, forKey: "price")            // Int → Double?
        #expect(try book.value(forKey: "title") as? String == "Dune")
        #expect(try book.value(forKey: "pages") as? Int == 412)
        #expect(try book.value(forKey: "price") as? Double == 9)
        try book.setValue(nil, forKey: "price")
        #expect(try book.value(forKey: "price") == nil)
        try book.setValue(NSNull(), forKey: "author")
        #expect(try book.value(forKey: "author") == nil)
    }

    @Test func errorsNameTheKeyAndType() throws {
        let book = Record(.book)
        #expect(throws: KeyValueCodingError.undefinedKey("name", type: "KeyValueCodingTests.Record")) {
            try book.value(forKey: "name")
        }
        #expect(throws: KeyValueCodingError.readOnlyKey("isbn", type: "KeyValueCodingTests.Record")) {
            try book.setValue("1", forKey: "isbn")
        }
        #expect(throws: KeyValueCodingError.nilNotAllowed(key: "pages", type: "KeyValueCodingTests.Record")) {
            try book.setValue(nil, forKey: "pages")
        }
        #expect(throws: KeyValueCodingError.self) { try book.setValue("many", forKey: "pages") }
        #expect(try book.value(forKey: "pages") as? Int == 0)
    }

    @Test func objectsOfOneClassWithDifferentKeys() throws {
        let book = Record(.book)
        let author = Record(.author)
        try author.setValue("Herbert", forKey: "name")
        try book.setValue("Dune", forKey: "title")
        // The same key in two tables, at different slots and of different kinds, alternately:
        // caches keyed on the class alone would give one object the other's property.
        let path = try KeyValuePath("title")
        for _ in 0..<3 {
            #expect(try path.value(of: book) as? String == "Dune")
            #expect(try path.value(of: author) as? String == "Dr. Herbert")
            #expect(try book.value(forKey: "title") as? String == "Dune")
            #expect(try author.value(forKey: "title") as? String == "Dr. Herbert")
        }
        #expect(throws: KeyValueCodingError.self) { try author.value(forKey: "pages") }
        #expect(throws: KeyValueCodingError.self) { try KeyValuePath("pages").value(of: author) }
        #expect(KeyValueKeyTable.of(object: book).allKeys == ["title", "pages", "price", "author", "isbn"])
        #expect(KeyValueKeyTable.of(object: author).allKeys == ["name", "title"])
    }

    @Test func typedReadingsAlternateBetweenTablesOfOneClass() throws {
        let book = Record(.book)
        let author = Record(.author)
        try author.setValue("Herbert", forKey: "name")
        try book.setValue("Dune", forKey: "title")
        try book.setValue(author, forKey: "author")
        // A path's steps remember the property and the class last seen: objects of one class
        // with different tables must each get their own table's property, in any order.
        let title = try KeyValuePath("title")
        let authorTitle = try KeyValuePath("author.title")
        for _ in 0..<3 {
            guard case .string("Dune") = try title.reading(of: book as AnyObject),
                  case .string("Dr. Herbert") = try title.reading(of: author as AnyObject),
                  case .string("Dr. Herbert") = try authorTitle.reading(of: book),
                  case .string("Dune") = try title.reading(of: book) else {
                Issue.record("a reading came from the other table's property")
                return
            }
        }
        // A key the other table lacks still fails there.
        #expect(throws: KeyValueCodingError.self) { try KeyValuePath("pages").reading(of: author) }
    }

    @Test func accessorsOfOtherTypesAndSharedAccessorsReadTheirValues() throws {
        struct Point: Equatable, Sendable { var x = 1, y = 2 }
        final class Holder: KeyValueKeyTableProviding, @unchecked Sendable {
            // @unchecked: the test uses it on one thread.
            var point = Point()
            var note: Any? = Optional<String>.some("kept")
            let table: KeyValueKeyTable
            init(_ table: KeyValueKeyTable) { self.table = table }
            var keyValueKeyTable: KeyValueKeyTable { table }
        }
        let point = KeyValueProperty(key: "point", type: Point.self, get: { ($0 as! Holder).point })
        let note = KeyValueProperty(key: "note", type: Any?.self, get: { ($0 as! Holder).note })
        // The same properties in two tables: the second table holds copies.
        let first = Holder(KeyValueKeyTable(properties: [point, note]))
        let second = Holder(KeyValueKeyTable(properties: [point, note]))
        second.point = Point(x: 3, y: 4)
        for (holder, expected) in [(first, Point()), (second, Point(x: 3, y: 4))] {
            guard case .value(let value) = try KeyValuePath("point").reading(of: holder) else {
                Issue.record("expected a value reading")
                return
            }
            #expect(value as? Point == expected)
            // An `Any?` accessor holding an optional reads as what the optional holds.
            guard case .string("kept") = try KeyValuePath("note").reading(of: holder) else {
                Issue.record("expected the optional's string")
                return
            }
        }
        second.note = nil
        guard case .null = try KeyValuePath("note").reading(of: second) else {
            Issue.record("expected a null reading")
            return
        }
    }

    @Test func keyPathsAndTypedReadingsThroughRecords() throws {
        let author = Record(.author)
        try author.setValue("Le Guin", forKey: "name")
        let book = Record(.book)
        try book.setValue(author, forKey: "author")
        try book.setValue(250, forKey: "pages")
        #expect(try book.value(forKeyPath: "author.name") as? String == "Le Guin")
        try book.setValue("Ursula", forKeyPath: "author.name")
        #expect(try author.value(forKey: "name") as? String == "Ursula")
        guard case .string(let name) = try KeyValuePath("author.name").reading(of: book) else {
            Issue.record("expected a string reading")
            return
        }
        #expect(name == "Ursula")
        guard case .number(.integer(250)) = try KeyValuePath("pages").reading(of: book) else {
            Issue.record("expected an integer reading")
            return
        }
        guard case .null = try KeyValuePath("price").reading(of: book) else {
            Issue.record("expected a null reading")
            return
        }
    }

    @Test func collectionOperatorsOverRecords() throws {
        let books = (1...4).map { pages -> Record in
            let book = Record(.book)
            try? book.setValue(pages * 100, forKey: "pages")
            return book
        }
        #expect(try KeyValue.value(forKeyPath: "@sum.pages", of: books) as? Int == 1_000)
        #expect(try KeyValue.value(forKeyPath: "@max.pages", of: books) as? Int == 400)
        let mixed: [Record] = books + [Record(.author)]
        #expect(throws: KeyValueCodingError.self) { try KeyValue.value(forKeyPath: "@sum.pages", of: mixed) }
    }

    @Test func validatorsComeFromTheTable() throws {
        let book = Record(.book)
        var good: Any? = 3
        try book.validateValue(&good, forKey: "pages")
        var bad: Any? = -3
        #expect(throws: KeyValueCodingError.validationFailed(key: "pages", type: "KeyValueCodingTests.Record", reason: "negative")) {
            try book.validateValue(&bad, forKey: "pages")
        }
    }

    @Test func anAccessorCanRefuseAValue() throws {
        struct Refused: Error, Equatable {}
        let table = KeyValueKeyTable(properties: [
            KeyValueProperty(key: "even", type: Int.self, get: { _ in 0 },
                             set: { _, value in if value % 2 != 0 { throw Refused() } }),
        ])
        final class Holder: KeyValueKeyTableProviding, @unchecked Sendable {
            let table: KeyValueKeyTable
            init(_ table: KeyValueKeyTable) { self.table = table }
            var keyValueKeyTable: KeyValueKeyTable { table }
        }
        let holder = Holder(table)
        try holder.setValue(2, forKey: "even")
        #expect(throws: Refused.self) { try holder.setValue(3, forKey: "even") }
    }

    @Test func aPropertySharedByTwoTablesIsCopied() throws {
        let shared = RecordSchema.slot("title", String.self, at: 0)
        let first = KeyValueKeyTable(properties: [shared])
        let second = KeyValueKeyTable(properties: [shared])
        let a = try #require(first.property(forKey: "title"))
        let b = try #require(second.property(forKey: "title"))
        #expect(a !== b)
        #expect(a.owner != b.owner)
    }

    @Test func wrappersThatDoNotSayWhereTheirValueIsAreReadThroughTheWrapper() throws {
        let object = Wrapped()
        let property = try #require(KeyValueKeyTable.of(Wrapped.self).property(forKey: "score"))
        #expect(property.directOffset == nil)  // `Counted` does not say where its value lies
        #expect(try object.value(forKey: "score") as? Double == 0)
    }
}
