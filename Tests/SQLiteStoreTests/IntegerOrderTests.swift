import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// A fetch sorted by integer (or Boolean) attributes alone, with no limits, is read without
/// SQL's `ORDER BY` and put in order in memory: the rows must come back in exactly the order
/// `ORDER BY <columns>, Z_PK` gives, `NULL`s, equal keys and descending keys included; a value
/// of another storage class in an integer column (written by another program) leaves the
/// order to SQL.
@Suite struct IntegerOrderTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Sample", properties: [
                .attribute("big", .integer64), .attribute("small", .integer16), .attribute("flag", .boolean),
                .attribute("name", .string),
            ]),
        ])
    }

    /// 40 rows written out of key order, with `NULL`s and repeated values in every column.
    static func store(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("Order.sqlite")
        _ = try openStack(try model(), at: url)
        let writer = try SQLiteConnection(path: url.path, mode: .readWrite)
        for index in 0..<40 {
            let key = Int64((index * 17) % 40 + 1)
            let big: SQLiteValue = index % 7 == 3 ? .null : .integer(Int64((index * 5) % 9) - 4)
            let small: SQLiteValue = index % 5 == 1 ? .null : .integer(Int64(index % 3))
            let flag: SQLiteValue = index % 6 == 0 ? .null : .integer(Int64(index % 2))
            try writer.run("INSERT INTO ZSAMPLE (Z_PK, Z_ENT, Z_OPT, ZBIG, ZSMALL, ZFLAG, ZNAME) VALUES (?, 1, 1, ?, ?, ?, ?)",
                           [.integer(key), big, small, flag, .text("n\(index)")])
        }
        try writer.run("UPDATE Z_PRIMARYKEY SET Z_MAX = 40 WHERE Z_NAME = 'Sample'", [])
        return url
    }

    static let orders: [(descriptors: [KeyValueSortDescriptor], sql: String)] = [
        ([KeyValueSortDescriptor(key: "big")], "ZBIG"),
        ([KeyValueSortDescriptor(key: "big", ascending: false)], "ZBIG DESC"),
        ([KeyValueSortDescriptor(key: "small"), KeyValueSortDescriptor(key: "big", ascending: false)], "ZSMALL, ZBIG DESC"),
        ([KeyValueSortDescriptor(key: "flag", ascending: false), KeyValueSortDescriptor(key: "small"),
          KeyValueSortDescriptor(key: "big")], "ZFLAG DESC, ZSMALL, ZBIG"),
    ]

    static func key(_ id: ManagedObjectID) -> Int64 {
        guard case .integer(let key) = id.referenceObject else { return -1 }
        return key
    }

    static func keys(_ rows: [StoreRow]) -> [Int64] { rows.map { key($0.objectID) } }

    static func sqlKeys(_ url: URL, where condition: String = "1", _ order: String) throws -> [Int64] {
        try query(url, "SELECT Z_PK FROM ZSAMPLE WHERE \(condition) ORDER BY \(order), Z_PK").map { $0[0].integerValue ?? -2 }
    }

    @Test func rowsComeInTheOrderSQLGives() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.store(directory)
        let (store, context) = try openStack(try Self.model(), at: url)
        let predicate = try KeyValuePredicate(format: "big > -2 OR small == nil")
        for (descriptors, sql) in Self.orders {
            let all = try store.fetch(StoreFetchRequest(entityNames: ["Sample"], sortDescriptors: descriptors))
            #expect(all.appliedOrderAndLimits)
            #expect(Self.keys(all.rows) == (try Self.sqlKeys(url, sql)), "\(sql)")
            let some = try store.fetch(StoreFetchRequest(entityNames: ["Sample"], predicate: predicate, sortDescriptors: descriptors))
            let expected = try Self.sqlKeys(url, where: "ZBIG > -2 OR ZSMALL IS NULL", sql)
            #expect(expected.count > 10 && expected.count < 40)
            #expect(Self.keys(some.rows) == expected, "\(sql), filtered")
            // The objects a context fetches keep that order, with their values.
            let objects = try context.fetch(EntityFetchRequest(entityName: "Sample", predicate: predicate, sortDescriptors: descriptors))
            #expect(objects.map { Self.key($0.objectID) } == expected)
            let names = try query(url, "SELECT ZNAME FROM ZSAMPLE WHERE ZBIG > -2 OR ZSMALL IS NULL ORDER BY \(sql), Z_PK")
            #expect(objects.map { $0.stored("name") as? String } == names.map { row -> String? in
                if case .text(let name) = row[0] { return name }
                return nil
            })
        }
    }

    @Test func anUnreadableKeyLeavesTheOrderToSQL() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.store(directory)
        let writer = try SQLiteConnection(path: url.path, mode: .readWrite)
        // Neither reads as an integer. SQL's order meets the real first ascending (it sorts
        // among the numbers) and the text first descending (after them all); the key order
        // would meet the text (key 7) first either way.
        try writer.run("UPDATE ZSAMPLE SET ZBIG = 'text' WHERE Z_PK = 7", [])
        try writer.run("UPDATE ZSAMPLE SET ZBIG = 0.5 WHERE Z_PK = 12", [])
        let (store, _) = try openStack(try Self.model(), at: url)
        for (ascending, named) in [(true, "0.5"), (false, "text")] {
            let request = StoreFetchRequest(entityNames: ["Sample"], sortDescriptors: [KeyValueSortDescriptor(key: "big", ascending: ascending)])
            #expect { try store.fetch(request) } throws: { error in
                guard let error = error as? SQLiteStoreError, case .unsupported(let text) = error.code else { return false }
                return text.contains(named) && text.contains("Sample.big")
            }
        }
        // Sorted by another integer, the rows are read as before (the unreadable values are
        // not keys, and the fetch still throws).
        let bySmall = StoreFetchRequest(entityNames: ["Sample"], sortDescriptors: [KeyValueSortDescriptor(key: "small")])
        #expect(throws: SQLiteStoreError.self) { try store.fetch(bySmall) }
        try writer.run("UPDATE ZSAMPLE SET ZBIG = 1 WHERE Z_PK IN (7, 12)", [])
        #expect(Self.keys(try store.fetch(bySmall).rows) == (try Self.sqlKeys(url, "ZSMALL")))
    }
}
