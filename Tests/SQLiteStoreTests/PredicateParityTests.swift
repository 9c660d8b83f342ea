import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// Predicates applied in SQL select exactly the rows the in-memory evaluation selects (or,
/// when marked inexact, at least those rows).
@Suite struct PredicateParityTests {
    static let names: [String?] = [nil, "apple", "Apple", "\u{E9}", "e\u{301}", "b", "", "zebra", "\u{212A}", "K"]
    static let reference = Date(timeIntervalSinceReferenceDate: 700_000_000)
    static let identity = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))

    /// A store of 40 items with every combination-ish of values (nil included), its context's
    /// objects, and the store.
    static func stocked(_ directory: TemporaryDirectory) throws -> (SQLitePersistentStore, [ManagedObject]) {
        let url = directory.file("Parity.sqlite")
        let coordinator = PersistentStoreCoordinator(model: try Models.library())
        let store = SQLitePersistentStore(url: url, evaluatesPredicatesInSQL: true)
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let smalls: [Int16?] = [nil, -1, 0, 5]
        let ratios: [Double?] = [nil, 0.5, 2.0, -3]
        let flags: [Bool?] = [nil, true, false]
        for index in 0..<40 {
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue(smalls[index % smalls.count], forKey: "small")
            try item.setValue(ratios[(index / 2) % ratios.count], forKey: "ratio")
            try item.setValue(flags[index % flags.count], forKey: "flag")
            try item.setValue(names[index % names.count], forKey: "name")
            try item.setValue(index % 5 == 0 ? nil : reference.addingTimeInterval(Double(index - 20)), forKey: "when")
            try item.setValue(index % 7 == 0 ? identity : (index % 7 == 1 ? nil : UUID()), forKey: "identity")
        }
        try context.save()
        return (store, try context.fetch(EntityFetchRequest(entityName: "Item")))
    }

    static let exactFormats = [
        "small == 5", "small != 5", "small < 1", "small >= 0", "5 > small", "small == 0.0", "small > -0.5",
        "ratio > 1", "ratio <= 0.5", "ratio != 2", "ratio == nil", "ratio != nil",
        "flag == YES", "flag == NO", "flag != YES", "flag == 1", "flag == nil",
        "name == 'apple'", "name != 'apple'", "name == '\u{E9}'", "name == 'e\u{301}'", "name == 'K'", "name < 'b'",
        "name >= 'a'", "name == ''", "name == nil", "name != nil", "small IN {0, 5}", "name IN {'apple', 'b', '\u{E9}'}",
        "small BETWEEN {0, 5}", "NOT (small == 5)", "NOT (name == 'apple')", "small == 5 OR ratio > 1",
        "small == 5 AND name == 'apple'", "NOT (small == 5 OR flag == YES)", "TRUEPREDICATE", "FALSEPREDICATE",
        "name ==[c] 'apple'", "name ==[c] 'apple' AND small == 5", "NOT (name ==[c] 'apple')", "name BEGINSWITH 'a'",
        "small == 5 OR name CONTAINS 'p'", "name ==[cd] 'E'", "name ==[d] 'e'", "name LIKE[c] 'a*e'", "name ENDSWITH 'e'",
        "name IN[c] {'APPLE', 'k'}", "name <[c] 'b'",
    ]

    static let inexactFormats = [
        "small == '5'", "ratio > small", "name MATCHES 'a.*'", "name MATCHES 'a.*' AND small == 5",
    ]

    static func check(_ predicate: KeyValuePredicate, exact: Bool, store: SQLitePersistentStore,
                      objects: [ManagedObject]) throws {
        let expected = Set(try objects.filter { try predicate.evaluate(with: $0) }.map(\.objectID))
        let result = try store.fetch(StoreFetchRequest(entityNames: ["Item"], predicate: predicate))
        let found = Set(result.rows.map(\.objectID))
        #expect(result.appliedPredicate == exact, "\(predicate)")
        if exact {
            #expect(found == expected, "\(predicate): \(found.subtracting(expected).count) extra, \(expected.subtracting(found).count) missing")
        } else {
            #expect(found.isSuperset(of: expected), "\(predicate): \(expected.subtracting(found).count) missing")
        }
    }

    @Test func exactPredicatesSelectTheSameRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, objects) = try Self.stocked(directory)
        for format in Self.exactFormats {
            try Self.check(try KeyValuePredicate(format: format), exact: true, store: store, objects: objects)
        }
        let date = KeyValueConstant.date(Self.reference)
        for op in [ComparisonOperator.lessThan, .greaterThanOrEqualTo, .equalTo, .notEqualTo] {
            let predicate = KeyValuePredicate(.comparison(KeyValueComparison(.keyPath("when"), op, .constant(date))))
            try Self.check(predicate, exact: true, store: store, objects: objects)
        }
        for op in [ComparisonOperator.equalTo, .notEqualTo] {
            let predicate = KeyValuePredicate(.comparison(KeyValueComparison(.keyPath("identity"), op, .constant(.uuid(Self.identity)))))
            try Self.check(predicate, exact: true, store: store, objects: objects)
        }
    }

    @Test func aRegularExpressionThatGivesUpIsAnErrorOfTheFetch() throws {
        // SQL keeps the rows it cannot decide (the engine gives up once per run of the query, not
        // once per row: the first give-up marks the statement's matcher), and the in-memory
        // evaluation throws the evaluator's error.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let coordinator = PersistentStoreCoordinator(model: try Models.library())
        try coordinator.addStore(SQLitePersistentStore(url: directory.file("Regex.sqlite"), evaluatesPredicatesInSQL: true))
        let context = ManagedObjectContext(coordinator: coordinator)
        for _ in 0..<4 {
            try context.insertNewObject(forEntityNamed: "Item").setValue(String(repeating: "a", count: 30) + "!", forKey: "name")
        }
        try context.save()
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let request = EntityFetchRequest(entityName: "Item", predicate: try KeyValuePredicate(format: "name MATCHES %@", "(?:(a|a)+b|.*)"))
        #expect(throws: PredicateEvaluationError.regularExpressionGaveUp(pattern: "(?:(a|a)+b|.*)")) { try fresh.fetch(request) }
    }

    @Test func otherPredicatesNarrowToASuperset() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, objects) = try Self.stocked(directory)
        for format in Self.inexactFormats {
            try Self.check(try KeyValuePredicate(format: format), exact: false, store: store, objects: objects)
        }
    }

    @Test func aStoreWithoutSQLPredicatesReturnsEveryRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let coordinator = PersistentStoreCoordinator(model: try Models.library())
        let store = SQLitePersistentStore(url: directory.file("Plain.sqlite"), evaluatesPredicatesInSQL: false)
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        for small in [Int16(1), 2, 3] {
            try context.insertNewObject(forEntityNamed: "Item").setValue(small, forKey: "small")
        }
        try context.save()
        let result = try store.fetch(StoreFetchRequest(entityNames: ["Item"], predicate: try KeyValuePredicate(format: "small == 2")))
        #expect(result.rows.count == 3)
        #expect(!result.appliedPredicate)
        let matching = try context.fetch(EntityFetchRequest(entityName: "Item", predicate: try KeyValuePredicate(format: "small == 2")))
        #expect(matching.count == 1)
    }

    @Test func toOneRelationshipsCompareWithObjectIDs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let coordinator = PersistentStoreCoordinator(model: try Models.library())
        let store = SQLitePersistentStore(url: directory.file("Library.sqlite"), evaluatesPredicatesInSQL: true)
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let shelves = try (0..<2).map { _ in try context.insertNewObject(forEntityNamed: "Shelf") }
        var books: [ManagedObject] = []
        for index in 0..<6 {
            let book = try context.insertNewObject(forEntityNamed: index % 2 == 0 ? "Novel" : "Book")
            try book.setValue(index < 4 ? shelves[index % 2] : nil, forKey: "shelf")
            books.append(book)
        }
        var tags: [ManagedObject] = []
        for index in 0..<5 {
            let tag = try context.insertNewObject(forEntityNamed: "Tag")
            try tag.setValue(index < 4 ? books[index] : nil, forKey: "favourite")
            tags.append(tag)
        }
        let item = try context.insertNewObject(forEntityNamed: "Item")
        try context.save()

        /// The same comparison with the object (evaluated in memory) and with its ID (in SQL).
        func check(_ entity: String, _ key: String, _ op: ComparisonOperator, _ object: ManagedObject?,
                   _ objects: [ManagedObject]) throws {
            let inMemory = KeyValuePredicate(.comparison(KeyValueComparison(.keyPath(key), op,
                                                                           .constant(object.map { KeyValueConstant($0 as Any?) } ?? .null))))
            let forStore = KeyValuePredicate(.comparison(KeyValueComparison(.keyPath(key), op,
                                                                           .constant(object.map { KeyValueConstant($0.objectID) } ?? .null))))
            let expected = Set(try objects.filter { try inMemory.evaluate(with: $0) }.map(\.objectID))
            let names = entity == "Book" ? ["Book", "Novel"] : [entity]
            let result = try store.fetch(StoreFetchRequest(entityNames: names, predicate: forStore))
            #expect(result.appliedPredicate, "\(forStore)")
            #expect(Set(result.rows.map(\.objectID)) == expected, "\(forStore)")
        }
        for op in [ComparisonOperator.equalTo, .notEqualTo] {
            try check("Book", "shelf", op, shelves[0], books)
            try check("Book", "shelf", op, nil, books)
            try check("Tag", "favourite", op, books[0], tags)   // a Novel: the entity column is checked
            try check("Tag", "favourite", op, books[1], tags)
            try check("Tag", "favourite", op, nil, tags)
            try check("Tag", "favourite", op, item, tags)       // not a Book: matches nothing
        }
        let ids = KeyValueConstant.array([KeyValueConstant(books[0].objectID), KeyValueConstant(books[3].objectID)])
        let result = try store.fetch(StoreFetchRequest(entityNames: ["Tag"], predicate: KeyValuePredicate(
            .comparison(KeyValueComparison(.keyPath("favourite"), .in, .constant(ids))))))
        #expect(result.appliedPredicate)
        #expect(Set(result.rows.map(\.objectID)) == [tags[0].objectID, tags[3].objectID])
    }
}

/// Compiled comparisons outside `NOT` leave SQLite free to use an index.
@Suite struct CompiledIndexUseTests {
    @Test func comparisonsAndPrefixesUseTheFetchIndexes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var entity = EntityDescription(name: "Record", properties: [.attribute("i1", .integer64), .attribute("t1", .string)])
        entity.indexes = [FetchIndexDescription(name: "byI1", elements: [.init(propertyName: "i1")]),
                          FetchIndexDescription(name: "byT1", elements: [.init(propertyName: "t1")])]
        let model = try ManagedObjectModel(entities: [entity])
        let url = directory.file("Indexed.sqlite")
        let (store, _) = try openStack(model, at: url)
        let plans = try store.withEngine { engine -> [String] in
            let compiler = SQLitePredicateCompiler(entity: try engine.entity("Record"), schema: engine.schema, storeIdentifier: engine.identifier)
            return try ["i1 > 5", "t1 BEGINSWITH 'ab'", "i1 BETWEEN {1, 9}", "NOT (i1 > 5)"].map { format in
                let condition = try #require(compiler.compile(try KeyValuePredicate(format: format)))
                let plan = try engine.connection.rows("EXPLAIN QUERY PLAN SELECT t0.Z_PK FROM ZRECORD t0 WHERE " + condition.sql,
                                                      condition.arguments)
                return plan.map { row in row.compactMap { if case .text(let text) = $0 { text } else { nil } }.joined() }.joined(separator: " ")
            }
        }
        #expect(plans[0].contains("SEARCH t0 USING COVERING INDEX Z_Record_byI1"), "\(plans[0])")
        #expect(plans[1].contains("SEARCH t0 USING COVERING INDEX Z_Record_byT1"), "\(plans[1])")
        #expect(plans[2].contains("SEARCH t0 USING COVERING INDEX Z_Record_byI1"), "\(plans[2])")
        #expect(!plans[3].contains("SEARCH"), "\(plans[3])")   // under NOT: 0/1 expressions, a scan
    }
}
