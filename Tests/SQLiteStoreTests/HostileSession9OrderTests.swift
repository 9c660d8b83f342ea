import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// Hostile checks of the in-memory order of integer and Boolean sort keys (no limits): the
/// same fetch with a limit (SQL's `ORDER BY`), SQL itself, and a Swift sort must all agree,
/// with extreme values, `NULL`s, ties, mixed directions, subentities, values written by raw
/// SQL, unsaved changes and batched fetches.
@Suite struct HostileSession9OrderTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Sample", properties: [
                .attribute("big", .integer64), .attribute("mid", .integer32), .attribute("flag", .boolean),
                .attribute("name", .string),
            ]),
            EntityDescription(name: "Kind", isAbstract: true, properties: [.attribute("rank", .integer64)]),
            EntityDescription(name: "OnlyKind", parent: "Kind", properties: [.attribute("level", .integer16)]),
            EntityDescription(name: "Base", properties: [.attribute("rank", .integer64)]),
            EntityDescription(name: "Derived", parent: "Base", properties: [.attribute("extra", .integer32)]),
        ])
    }

    /// A small deterministic generator.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 17
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static let bigPool: [Int64?] = [nil, .min, .max, -1, 0, 1, -9_000_000_000, 9_000_000_000, .min + 1, .max - 1, 7, -7]
    static let midPool: [Int64?] = [nil, Int64(Int32.min), Int64(Int32.max), -3, 0, 3]
    static let flagPool: [Int64?] = [nil, 0, 1]

    static func sqlValue(_ value: Int64?) -> SQLiteValue { value.map { .integer($0) } ?? .null }

    /// 120 rows, keys written out of order, values from small pools (many ties).
    static func makeStore(_ directory: TemporaryDirectory, seed: UInt64 = 9) throws -> URL {
        let url = directory.file("H9Order.sqlite")
        _ = try openStack(try model(), at: url)
        let writer = try SQLiteConnection(path: url.path, mode: .readWrite)
        let entity = try writer.rows("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Sample'")[0][0]
        var generator = Generator(state: seed)
        for index in 0..<120 {
            let key = Int64((index * 37) % 120 + 1)
            try writer.run("INSERT INTO ZSAMPLE (Z_PK, Z_ENT, Z_OPT, ZBIG, ZMID, ZFLAG, ZNAME) VALUES (?, ?, 1, ?, ?, ?, ?)",
                           [.integer(key), entity, sqlValue(bigPool[generator.below(bigPool.count)]),
                            sqlValue(midPool[generator.below(midPool.count)]),
                            sqlValue(flagPool[generator.below(flagPool.count)]), .text("n\(key)")])
        }
        try writer.run("UPDATE Z_PRIMARYKEY SET Z_MAX = 120 WHERE Z_NAME = 'Sample'", [])
        return url
    }

    static let columns = ["big": "ZBIG", "mid": "ZMID", "flag": "ZFLAG"]

    /// Every order of one to three distinct keys, each either direction.
    static func orders() -> [[KeyValueSortDescriptor]] {
        let names = ["big", "mid", "flag"]
        var result: [[KeyValueSortDescriptor]] = []
        func extend(_ prefix: [KeyValueSortDescriptor], _ left: [String]) {
            if !prefix.isEmpty { result.append(prefix) }
            for name in left {
                for ascending in [true, false] {
                    extend(prefix + [KeyValueSortDescriptor(key: name, ascending: ascending)], left.filter { $0 != name })
                }
            }
        }
        extend([], names)
        return result
    }

    static func sql(_ descriptors: [KeyValueSortDescriptor]) -> String {
        descriptors.map { columns[$0.key!]! + ($0.ascending ? "" : " DESC") }.joined(separator: ", ")
    }

    static func key(_ id: ManagedObjectID) -> Int64 {
        guard case .integer(let key) = id.referenceObject else { return -1 }
        return key
    }

    static func keys(_ rows: [StoreRow]) -> [Int64] { rows.map { key($0.objectID) } }

    /// The integer value of a key of an object (`Bool` as 0 or 1).
    static func number(_ object: ManagedObject, _ key: String) -> Int64? {
        switch try? object.value(forKey: key) {
        case let value as Int64: return value
        case let value as Int32: return Int64(value)
        case let value as Int16: return Int64(value)
        case let value as Bool: return value ? 1 : 0
        default: return nil
        }
    }

    /// Whether `objects` are in the descriptors' order (nil first ascending), ties by key when `byKey`.
    static func inOrder(_ objects: [ManagedObject], _ descriptors: [KeyValueSortDescriptor], byKey: Bool) -> Bool {
        func before(_ a: ManagedObject, _ b: ManagedObject) -> Bool? {
            for descriptor in descriptors {
                let l = number(a, descriptor.key!), r = number(b, descriptor.key!)
                if l == r { continue }
                guard let l else { return descriptor.ascending }
                guard let r else { return !descriptor.ascending }
                return (l < r) == descriptor.ascending
            }
            return nil
        }
        for (a, b) in zip(objects, objects.dropFirst()) {
            if let ordered = before(a, b) {
                if !ordered { return false }
            } else if byKey, key(a.objectID) > key(b.objectID) {
                return false
            }
        }
        return true
    }

    @Test func everyOrderAgreesWithSQLAndWithALimitedFetch() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.makeStore(directory)
        let (store, context) = try openStack(try Self.model(), at: url)
        let predicate = try KeyValuePredicate(format: "mid >= 0 OR big == nil")
        for descriptors in Self.orders() {
            let sql = Self.sql(descriptors)
            let expected = try query(url, "SELECT Z_PK FROM ZSAMPLE ORDER BY \(sql), Z_PK").map { $0[0].integerValue ?? -2 }
            let inMemory = try store.fetch(StoreFetchRequest(entityNames: ["Sample"], sortDescriptors: descriptors))
            #expect(inMemory.appliedOrderAndLimits)
            #expect(Self.keys(inMemory.rows) == expected, "\(sql)")
            let limited = try store.fetch(StoreFetchRequest(entityNames: ["Sample"], sortDescriptors: descriptors, fetchLimit: 1000))
            #expect(Self.keys(limited.rows) == expected, "\(sql) limited")
            let offset = try store.fetch(StoreFetchRequest(entityNames: ["Sample"], sortDescriptors: descriptors, fetchOffset: 1))
            #expect(Self.keys(offset.rows) == Array(expected.dropFirst()), "\(sql) offset")
            let filtered = try query(url, "SELECT Z_PK FROM ZSAMPLE WHERE ZMID >= 0 OR ZBIG IS NULL ORDER BY \(sql), Z_PK")
                .map { $0[0].integerValue ?? -2 }
            let some = try store.fetch(StoreFetchRequest(entityNames: ["Sample"], predicate: predicate, sortDescriptors: descriptors))
            #expect(Self.keys(some.rows) == filtered, "\(sql) filtered")
            // The context's objects: same order, and in the keys' order by their own values.
            let objects = try context.fetch(EntityFetchRequest(entityName: "Sample", sortDescriptors: descriptors))
            #expect(objects.map { Self.key($0.objectID) } == expected, "\(sql) context")
            #expect(Self.inOrder(objects, descriptors, byKey: true), "\(sql) values")
            // IDs only (SQL's ORDER BY) agree as well.
            let ids = try context.fetchObjectIDs(EntityFetchRequest(entityName: "Sample", sortDescriptors: descriptors))
            #expect(ids.map(Self.key) == expected, "\(sql) IDs")
        }
    }

    @Test func aBatchedFetchAndAFetchWithUnsavedChangesKeepTheOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.makeStore(directory, seed: 42)
        let (_, context) = try openStack(try Self.model(), at: url)
        let descriptors = [KeyValueSortDescriptor(key: "flag", ascending: false), KeyValueSortDescriptor(key: "big"),
                           KeyValueSortDescriptor(key: "mid", ascending: false)]
        let expected = try query(url, "SELECT Z_PK FROM ZSAMPLE ORDER BY \(Self.sql(descriptors)), Z_PK").map { $0[0].integerValue ?? -2 }
        var batched = EntityFetchRequest(entityName: "Sample", sortDescriptors: descriptors)
        batched.fetchBatchSize = 7
        let faults = try context.fetch(batched)
        #expect(faults.map { Self.key($0.objectID) } == expected)
        #expect(Self.inOrder(faults, descriptors, byKey: true))

        // Unsaved changes: a few values changed, a few objects inserted and one deleted.
        let plain = try context.fetch(EntityFetchRequest(entityName: "Sample", sortDescriptors: descriptors))
        try plain[3].setValue(Int64.min, forKey: "big")
        try plain[10].setValue(nil, forKey: "flag")
        try plain[20].setValue(Int64.max, forKey: "big")
        try plain[20].setValue(true, forKey: "flag")
        context.delete(plain[30])
        for big: Int64? in [nil, .min, .max, 0] {
            let object = try context.insertNewObject(forEntityNamed: "Sample")
            try object.setValue(big, forKey: "big")
            try object.setValue(true, forKey: "flag")
            try object.setValue(Int32(-3), forKey: "mid")
        }
        let changed = try context.fetch(EntityFetchRequest(entityName: "Sample", sortDescriptors: descriptors))
        #expect(changed.count == 120 - 1 + 4)
        #expect(Self.inOrder(changed, descriptors, byKey: false))
        #expect(!changed.contains { $0 === plain[30] })
        #expect(Set(changed.map(ObjectIdentifier.init)).count == changed.count)

        // Saved: the store's order again matches SQL.
        try context.save()
        let after = try query(url, "SELECT Z_PK FROM ZSAMPLE ORDER BY \(Self.sql(descriptors)), Z_PK").map { $0[0].integerValue ?? -2 }
        let refetched = try context.fetch(EntityFetchRequest(entityName: "Sample", sortDescriptors: descriptors))
        #expect(refetched.map { Self.key($0.objectID) } == after)
        #expect(Self.inOrder(refetched, descriptors, byKey: true))
    }

    @Test func subentitiesAreOrderedByInheritedAndOwnKeys() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("H9Kinds.sqlite")
        do {
            let (_, context) = try openStack(try Self.model(), at: url)
            var generator = Generator(state: 5)
            for _ in 0..<40 {
                let only = try context.insertNewObject(forEntityNamed: "OnlyKind")
                try only.setValue(Self.bigPool[generator.below(Self.bigPool.count)], forKey: "rank")
                try only.setValue(generator.below(4) == 0 ? nil : Int16(generator.below(5)) - 2, forKey: "level")
                let entity = generator.below(2) == 0 ? "Base" : "Derived"
                let base = try context.insertNewObject(forEntityNamed: entity)
                try base.setValue(Self.bigPool[generator.below(Self.bigPool.count)], forKey: "rank")
                if entity == "Derived" { try base.setValue(Int32(generator.below(3)), forKey: "extra") }
            }
            try context.save()
        }
        let (store, context) = try openStack(try Self.model(), at: url)
        let table = SQLiteSchema.tableName(root: "Kind")
        for descriptors in [[KeyValueSortDescriptor(key: "rank")], [KeyValueSortDescriptor(key: "level", ascending: false),
                                                                     KeyValueSortDescriptor(key: "rank")]] {
            let sql = descriptors.map { "Z" + $0.key!.uppercased() + ($0.ascending ? "" : " DESC") }.joined(separator: ", ")
            let expected = try query(url, "SELECT Z_PK FROM \(table) ORDER BY \(sql), Z_PK").map { $0[0].integerValue ?? -2 }
            #expect(expected.count == 40)
            // Fetched through the abstract parent and through the subentity itself.
            for name in ["Kind", "OnlyKind"] {
                let objects = try context.fetch(EntityFetchRequest(entityName: name, sortDescriptors: descriptors))
                #expect(objects.map { Self.key($0.objectID) } == expected, "\(name) \(sql)")
                #expect(Self.inOrder(objects, descriptors, byKey: true))
            }
            let rows = try store.fetch(StoreFetchRequest(entityNames: ["OnlyKind"], sortDescriptors: descriptors))
            #expect(Self.keys(rows.rows) == expected)
        }
        // A parent with objects of its own and a subentity: the context orders both together.
        for ascending in [true, false] {
            let descriptors = [KeyValueSortDescriptor(key: "rank", ascending: ascending)]
            let objects = try context.fetch(EntityFetchRequest(entityName: "Base", sortDescriptors: descriptors))
            #expect(objects.count == 40)
            #expect(Self.inOrder(objects, descriptors, byKey: false))
            let derived = try context.fetch(EntityFetchRequest(entityName: "Derived", sortDescriptors: descriptors + [
                KeyValueSortDescriptor(key: "extra", ascending: !ascending)]))
            #expect(Self.inOrder(derived, descriptors + [KeyValueSortDescriptor(key: "extra", ascending: !ascending)], byKey: true))
        }
    }

    @Test func valuesWrittenByAnotherProgramOrderAsSQLDoes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.makeStore(directory, seed: 77)
        let writer = try SQLiteConnection(path: url.path, mode: .readWrite)
        // Integer affinity turns these into integers; the Boolean column holds numbers other
        // than 0 and 1.
        try writer.run("UPDATE ZSAMPLE SET ZBIG = '12' WHERE Z_PK = 5", [])
        try writer.run("UPDATE ZSAMPLE SET ZBIG = 3.0 WHERE Z_PK = 6", [])
        try writer.run("UPDATE ZSAMPLE SET ZBIG = ' 44 ' WHERE Z_PK = 8", [])
        try writer.run("UPDATE ZSAMPLE SET ZFLAG = 5 WHERE Z_PK IN (9, 10)", [])
        try writer.run("UPDATE ZSAMPLE SET ZFLAG = -1 WHERE Z_PK = 11", [])
        let types = try query(url, "SELECT typeof(ZBIG) FROM ZSAMPLE WHERE Z_PK IN (5, 6, 8) ORDER BY Z_PK")
        let (store, context) = try openStack(try Self.model(), at: url)
        for descriptors in [[KeyValueSortDescriptor(key: "big")], [KeyValueSortDescriptor(key: "big", ascending: false)],
                            [KeyValueSortDescriptor(key: "flag"), KeyValueSortDescriptor(key: "big", ascending: false)],
                            [KeyValueSortDescriptor(key: "flag", ascending: false)]] {
            let sql = Self.sql(descriptors)
            let expected = try query(url, "SELECT Z_PK FROM ZSAMPLE ORDER BY \(sql), Z_PK").map { $0[0].integerValue ?? -2 }
            let inMemory = try? store.fetch(StoreFetchRequest(entityNames: ["Sample"], sortDescriptors: descriptors))
            let limited = try? store.fetch(StoreFetchRequest(entityNames: ["Sample"], sortDescriptors: descriptors, fetchLimit: 500))
            // Either both read the rows (in SQL's order) or both refuse them.
            #expect((inMemory == nil) == (limited == nil), "\(sql) \(types)")
            if let inMemory, let limited {
                #expect(Self.keys(inMemory.rows) == expected, "\(sql)")
                #expect(Self.keys(limited.rows) == expected, "\(sql) limited")
                let objects = try context.fetch(EntityFetchRequest(entityName: "Sample", sortDescriptors: descriptors))
                #expect(objects.map { Self.key($0.objectID) } == expected, "\(sql) context")
            }
        }
    }
}
