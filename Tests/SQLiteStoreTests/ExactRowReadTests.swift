import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// Rows the SQLite store reads keep only their slot values when every value is exactly of its
/// attribute's Swift type; their constants (``StoreRow/attributes``, the packed constants) are
/// then made from those values and must be what the store read. Values that do not fit their
/// type keep their constants, as before.
@Suite struct ExactRowReadTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Sample", properties: [
                .attribute("big", .integer64), .attribute("mid", .integer32), .attribute("small", .integer16),
                .attribute("flag", .boolean), .attribute("ratio", .double), .attribute("name", .string),
                .attribute("when", .date),
            ]),
            // A float has no exact constants: its rows always keep them.
            EntityDescription(name: "Gauge", properties: [.attribute("level", .float), .attribute("label", .string)]),
        ])
    }

    static func fixture() throws -> (TemporaryDirectory, URL, SQLitePersistentStore, ManagedObjectContext, PersistentStoreCoordinator) {
        let directory = try TemporaryDirectory()
        let url = directory.file("Exact.sqlite")
        let coordinator = PersistentStoreCoordinator(model: try model())
        let store = SQLitePersistentStore(url: url)
        try coordinator.addStore(store)
        return (directory, url, store, ManagedObjectContext(coordinator: coordinator), coordinator)
    }

    static let expected: [String: KeyValueConstant] = [
        "big": .integer(-9_000_000_000), "mid": .integer(70_000), "small": .integer(-300), "flag": .bool(true),
        "ratio": .double(0.25), "name": .string("Zoë, a name longer than fifteen bytes"),
        "when": .date(Date(timeIntervalSinceReferenceDate: 12_345.5)),
    ]

    @Test func exactRowsGiveTheConstantsTheyWereReadFrom() throws {
        let (directory, _, store, context, coordinator) = try Self.fixture()
        defer { directory.remove() }
        let sample = try context.insertNewObject(forEntityNamed: "Sample")
        for (key, constant) in Self.expected {
            let attribute = try #require(sample.entity.attributesByName[key])
            try sample.setValue(attribute.slotValue(from: constant), forKey: key)
        }
        _ = try context.insertNewObject(forEntityNamed: "Sample")  // every value NULL
        try context.save()

        let rows = try store.fetch(StoreFetchRequest(entityNames: ["Sample"])).rows
        #expect(rows.count == 2)
        let full = try #require(rows.first { $0.objectID == sample.objectID })
        let columns = try #require(full.columns)
        #expect(full.attributes == Self.expected)
        for (key, constant) in Self.expected { #expect(full.attributeValue(named: key) == constant) }
        #expect(Array(columns.constants) == columns.shape.names.map { Self.expected[$0]! })
        let empty = try #require(rows.first { $0.objectID != sample.objectID })
        #expect(empty.attributes.isEmpty)
        #expect(empty.columns?.constants.allSatisfy { $0 == .null } == true)
        // The same row made with a dictionary is equal.
        #expect(full == StoreRow(objectID: full.objectID, version: full.version, attributes: Self.expected))

        let other = ManagedObjectContext(coordinator: coordinator)
        let fetched = try #require(try other.fetch(EntityFetchRequest(entityName: "Sample",
                                                                      predicate: try KeyValuePredicate(format: "mid == 70000"))).first)
        #expect(try fetched.value(forKey: "big") as? Int64 == -9_000_000_000)
        #expect(try fetched.value(forKey: "mid") as? Int32 == 70_000)
        #expect(try fetched.value(forKey: "small") as? Int16 == -300)
        #expect(try fetched.value(forKey: "flag") as? Bool == true)
        #expect(try fetched.value(forKey: "ratio") as? Double == 0.25)
        #expect(try fetched.value(forKey: "name") as? String == "Zoë, a name longer than fifteen bytes")
        #expect(try fetched.value(forKey: "when") as? Date == Date(timeIntervalSinceReferenceDate: 12_345.5))
    }

    @Test func valuesOutOfTheirTypesRangeKeepTheirConstants() throws {
        let (directory, url, store, context, coordinator) = try Self.fixture()
        defer { directory.remove() }
        let sample = try context.insertNewObject(forEntityNamed: "Sample")
        try sample.setValue(Int64(1), forKey: "big")
        try context.save()
        // Numbers another program wrote, too large for the attributes' types.
        try SQLiteConnection(path: url.path, mode: .readWrite).execute("UPDATE ZSAMPLE SET ZMID = 5000000000, ZSMALL = 40000")

        let row = try #require(try store.fetch(StoreFetchRequest(entityNames: ["Sample"])).rows.first)
        #expect(row.attributes == ["big": .integer(1), "mid": .integer(5_000_000_000), "small": .integer(40_000)])
        #expect(row.attributeValue(named: "mid") == .integer(5_000_000_000))
        let other = ManagedObjectContext(coordinator: coordinator)
        let fetched = try #require(try other.fetch(EntityFetchRequest(entityName: "Sample")).first)
        #expect(try fetched.value(forKey: "mid") == nil)
        #expect(try fetched.value(forKey: "small") == nil)
        #expect(try fetched.value(forKey: "big") as? Int64 == 1)
    }

    /// The row's version and values are read from each column's value once found
    /// (`sqlite3_column_value`): a version another program stored as text reads as
    /// `SQLiteValue.integerValue ?? 0` read it (0), a number as itself; NULLs and empty text
    /// read as before.
    @Test func versionsAndValuesOfOtherStorageClassesReadAsBefore() throws {
        let (directory, url, store, context, _) = try Self.fixture()
        defer { directory.remove() }
        for name in ["first", "second", "third", ""] {
            let sample = try context.insertNewObject(forEntityNamed: "Sample")
            try sample.setValue(name, forKey: "name")
            try sample.setValue(Int64(name.count), forKey: "big")
        }
        try context.save()
        let connection = try SQLiteConnection(path: url.path, mode: .readWrite)
        try connection.execute("UPDATE ZSAMPLE SET Z_OPT = 7.0 WHERE ZNAME = 'first'")
        try connection.execute("UPDATE ZSAMPLE SET Z_OPT = 'seven' WHERE ZNAME = 'second'")

        let rows = try store.fetch(StoreFetchRequest(entityNames: ["Sample"])).rows
        func row(_ name: String) throws -> StoreRow {
            try #require(rows.first { $0.attributeValue(named: "name") == (name.isEmpty ? .string("") : .string(name)) })
        }
        #expect(try row("first").version == 7)
        #expect(try row("second").version == 0)
        #expect(try row("third").version == 1)
        #expect(try row("third").attributeValue(named: "big") == .integer(5))
        #expect(try row("").attributeValue(named: "name") == .string(""))
        #expect(try row("").attributeValue(named: "big") == .integer(0))
        #expect(try row("first").attributeValue(named: "ratio") == nil)
    }

    @Test func rowsOfEntitiesWithoutExactTypesKeepTheirConstants() throws {
        let (directory, _, store, context, _) = try Self.fixture()
        defer { directory.remove() }
        let gauge = try context.insertNewObject(forEntityNamed: "Gauge")
        try gauge.setValue(Float(0.1), forKey: "level")
        try gauge.setValue("low", forKey: "label")
        try context.save()
        let row = try #require(try store.fetch(StoreFetchRequest(entityNames: ["Gauge"])).rows.first)
        // The float is stored as a double: the constant is the stored double, not Float(0.1)'s.
        #expect(row.attributes["level"] == .double(Double(Float(0.1))))
        #expect(row.attributes["label"] == .string("low"))
    }
}
