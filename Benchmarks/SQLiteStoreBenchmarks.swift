// SQLite store workloads (issue 15), each beside the same rows written or read with prepared
// statements of the package's thin SQLite layer (the CSQLite module, no objects). See
// Docs/Performance.md and Docs/SQLiteStore.md.
import Foundation
import ObjectGraph
import SQLiteStore

/// Builds a value on first use, so filtered-out (and listed) workloads cost nothing.
private final class LazyStoreFixture<Value> {
    private var value: Value?
    private let make: () -> Value
    init(_ make: @escaping () -> Value) { self.make = make }
    var wrapped: Value {
        if let value { return value }
        let made = make()
        value = made
        return made
    }
}

/// One row read by the baseline: ten stored properties, as a hand-written record type.
private final class PlainRecord {
    var i1, i2, i3, i4: Int64?
    var d1, d2, d3: Double?
    var t1, t2, t3: String?
    init(_ row: [SQLiteValue]) {
        i1 = row[0].integerValue; i2 = row[1].integerValue; i3 = row[2].integerValue; i4 = row[3].integerValue
        d1 = row[4].doubleValue; d2 = row[5].doubleValue; d3 = row[6].doubleValue
        if case .text(let a) = row[7] { t1 = a }
        if case .text(let b) = row[8] { t2 = b }
        if case .text(let c) = row[9] { t3 = c }
    }
}

private enum StoreBench {
    static let integerKeys = ["i1", "i2", "i3", "i4"]
    static let doubleKeys = ["d1", "d2", "d3"]
    static let textKeys = ["t1", "t2", "t3"]
    static let columns = "ZI1, ZI2, ZI3, ZI4, ZD1, ZD2, ZD3, ZT1, ZT2, ZT3"

    /// A 10-attribute entity: four integers, three doubles, three strings.
    static func model() -> ManagedObjectModel {
        let properties: [PropertyDescription] = integerKeys.map { .attribute($0, .integer64) }
            + doubleKeys.map { .attribute($0, .double) } + textKeys.map { .attribute($0, .string) }
        return try! ManagedObjectModel(entities: [EntityDescription(name: "Record", properties: properties)])
    }

    static func values(_ index: Int) -> [SQLiteValue] {
        let i = Int64(index)
        return [.integer(i), .integer(i &* 7), .integer(i % 100), .integer(-i), .real(Double(index) * 0.5),
                .real(Double(index % 1000)), .real(1.0 / Double(index + 1)), .text("name \(index)"),
                .text(index % 2 == 0 ? "alpha" : "beta"), .text("t\(index % 97)")]
    }

    static func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-bench-\(name)-\(UUID().uuidString).sqlite")
    }

    static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    /// The raw side: a table of the same shape and the rows through one prepared statement.
    static func rawInsert(_ count: Int) {
        let url = temporaryFile("raw")
        defer { remove(url) }
        let connection = try! SQLiteConnection(path: url.path, mode: .create)
        try! connection.execute("PRAGMA journal_mode = WAL")
        try! connection.execute("CREATE TABLE ZRECORD ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZI1 INTEGER, ZI2 INTEGER, ZI3 INTEGER, ZI4 INTEGER, ZD1 FLOAT, ZD2 FLOAT, ZD3 FLOAT, ZT1 VARCHAR, ZT2 VARCHAR, ZT3 VARCHAR )")
        try! connection.transaction {
            let sql = "INSERT INTO ZRECORD (Z_PK, Z_ENT, Z_OPT, \(columns)) VALUES (?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            for index in 0..<count { try connection.run(sql, [.integer(Int64(index + 1))] + values(index)) }
        }
    }

    /// The store side: objects inserted in a context, one save.
    static func storeInsert(_ count: Int, model: ManagedObjectModel) {
        let url = temporaryFile("store")
        defer { remove(url) }
        let coordinator = PersistentStoreCoordinator(model: model)
        try! coordinator.addStore(SQLitePersistentStore(url: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        let keys = integerKeys + doubleKeys + textKeys
        for index in 0..<count {
            let object = try! context.insertNewObject(forEntityNamed: "Record")
            for (key, value) in zip(keys, values(index)) {
                switch value {
                case .integer(let integer): try! object.setValue(integer, forKey: key)
                case .real(let real): try! object.setValue(real, forKey: key)
                case .text(let text): try! object.setValue(text, forKey: key)
                default: break
                }
            }
        }
        try! context.save()
        blackHole(context)
    }

    /// A store file in the layout with `count` rows, written directly.
    static func storeFile(rows count: Int, model: ManagedObjectModel) -> URL {
        let url = temporaryFile("fetch")
        let coordinator = PersistentStoreCoordinator(model: model)
        try! coordinator.addStore(SQLitePersistentStore(url: url))
        let connection = try! SQLiteConnection(path: url.path, mode: .readWrite)
        try! connection.transaction {
            let sql = "INSERT INTO ZRECORD (Z_PK, Z_ENT, Z_OPT, \(columns)) VALUES (?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            for index in 0..<count { try connection.run(sql, [.integer(Int64(index + 1))] + values(index)) }
            try connection.run("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Record'", [.integer(Int64(count))])
        }
        return url
    }
}

func registerSQLiteStoreBenchmarks(in suite: BenchmarkSuite) {
    let insertCount = 20_000
    let fetchCount = 200_000
    let model = LazyStoreFixture { StoreBench.model() }
    suite.add("store_insert_20k", baseline: "raw_sqlite_insert", operationsPerIteration: insertCount, target: .ratio(3),
              note: "\(insertCount) objects of 10 attributes inserted in a context and saved (new WAL file each time), per object",
              body: { iterations in
        for _ in 0..<iterations { StoreBench.storeInsert(insertCount, model: model.wrapped) }
    }, baseline: { iterations in
        for _ in 0..<iterations { StoreBench.rawInsert(insertCount) }
    })

    let file = LazyStoreFixture { StoreBench.storeFile(rows: fetchCount, model: model.wrapped) }
    suite.add("store_fetch_200k", baseline: "raw_sqlite_select", operationsPerIteration: fetchCount, target: .ratio(3),
              note: "fetch \(fetchCount) objects in a new context and read their 10 attributes, per object",
              body: { iterations in
        let keys = StoreBench.integerKeys + StoreBench.doubleKeys + StoreBench.textKeys
        for _ in 0..<iterations {
            let coordinator = PersistentStoreCoordinator(model: model.wrapped)
            try! coordinator.addStore(SQLitePersistentStore(url: file.wrapped))
            let context = ManagedObjectContext(coordinator: coordinator)
            for object in try! context.fetch(EntityFetchRequest(entityName: "Record")) {
                for key in keys { blackHole(try? object.value(forKey: key)) }
            }
        }
    }, baseline: { iterations in
        for _ in 0..<iterations {
            let connection = try! SQLiteConnection(path: file.wrapped.path, mode: .readOnly)
            let records = try! connection.rows("SELECT \(StoreBench.columns) FROM ZRECORD WHERE Z_ENT = 1 ORDER BY Z_PK").map(PlainRecord.init)
            for record in records { blackHole(record.i1); blackHole(record.t3) }
        }
    })
}
