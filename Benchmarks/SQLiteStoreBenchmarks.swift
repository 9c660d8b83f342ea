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

enum StoreBench {
    static let integerKeys = ["i1", "i2", "i3", "i4"]
    static let doubleKeys = ["d1", "d2", "d3"]
    static let textKeys = ["t1", "t2", "t3"]
    static let columns = "ZI1, ZI2, ZI3, ZI4, ZD1, ZD2, ZD3, ZT1, ZT2, ZT3"

    /// A 10-attribute entity: four integers, three doubles, three strings; `indexed`: fetch
    /// indexes on `i1` and on `t1`.
    static func model(indexed: Bool = false) -> ManagedObjectModel {
        let properties: [PropertyDescription] = integerKeys.map { .attribute($0, .integer64) }
            + doubleKeys.map { .attribute($0, .double) } + textKeys.map { .attribute($0, .string) }
        var entity = EntityDescription(name: "Record", properties: properties)
        if indexed {
            entity.indexes = [FetchIndexDescription(name: "byI1", elements: [.init(propertyName: "i1")]),
                              FetchIndexDescription(name: "byT1", elements: [.init(propertyName: "t1")])]
        }
        return try! ManagedObjectModel(entities: [entity])
    }

    static func values(_ index: Int) -> [SQLiteValue] {
        let i = Int64(index)
        return [.integer(i), .integer(i &* 7), .integer(i % 100), .integer(-i), .real(Double(index) * 0.5),
                .real(Double(index % 1000)), .real(1.0 / Double(index + 1)), .text((index % 4 == 0 ? "a" : "n") + "ame \(index)"),
                .text(index % 2 == 0 ? "alpha" : "beta"), .text("t\(index % 97)")]
    }

    /// This process's own folder for store files, as an app keeps its store in its own data
    /// folder: opening a store lists its folder (the creation-litter sweep), so a shared `/tmp`
    /// with thousands of files would be timed too. Removed by `removeFolder()` at exit.
    static let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("objectgraph-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")

    static func temporaryFile(_ name: String) -> URL {
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("\(name)-\(UUID().uuidString).sqlite")
    }

    /// Removes this process's store files, the fixtures included.
    static func removeFolder() {
        try? FileManager.default.removeItem(at: folder)
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
    static func storeFile(rows count: Int, model: ManagedObjectModel, name: String = "fetch") -> URL {
        let url = temporaryFile(name)
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

/// Resident-memory growth of store_fetch_200k's two sides. `nonisolated(unsafe)`: the
/// benchmarks run one at a time on the main thread.
nonisolated(unsafe) private let fetchPeaks = (store: MemoryPeak(), raw: MemoryPeak())

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
            fetchPeaks.store.begin()
            let coordinator = PersistentStoreCoordinator(model: model.wrapped)
            try! coordinator.addStore(SQLitePersistentStore(url: file.wrapped))
            let context = ManagedObjectContext(coordinator: coordinator)
            for object in try! context.fetch(EntityFetchRequest(entityName: "Record")) {
                for key in keys { blackHole(try? object.value(forKey: key)) }
            }
            fetchPeaks.store.sample()
        }
    }, baseline: { iterations in
        for _ in 0..<iterations {
            fetchPeaks.raw.begin()
            let connection = try! SQLiteConnection(path: file.wrapped.path, mode: .readOnly)
            let records = try! connection.rows("SELECT \(StoreBench.columns) FROM ZRECORD WHERE Z_ENT = 1 ORDER BY Z_PK").map(PlainRecord.init)
            for record in records { blackHole(record.i1); blackHole(record.t3) }
            fetchPeaks.raw.sample()
        }
    })
    suite.add("store_fetch_200k_memory", baseline: "-", operationsPerIteration: 1, target: .none,
              note: "prints the resident-memory growth of the store_fetch_200k runs once (run alone for a true figure); its timings mean nothing",
              body: { _ in
        fetchPeaks.store.printOnce("resident growth: store_fetch_200k: store \(fetchPeaks.store.text), raw \(fetchPeaks.raw.text)")
    }, baseline: { _ in })
}

/// The process's resident memory in MiB (`/proc/self/statm`), `nil` where there is none.
private func residentMegabytes() -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
          let pages = Double(text.split(separator: " ").dropFirst().first ?? "") else { return nil }
    return pages * 4096 / 1_048_576
}

/// Peak growth of resident memory while a workload runs, sampled by `sample()` calls, the
/// largest over all runs. Memory the allocator keeps after one workload is reused by the
/// next without growing, so run a workload alone (`--filter store_fault_batch`) for its
/// figure.
private final class MemoryPeak {
    private var start: Double?
    private(set) var peak: Double?
    private var printed = false
    func begin() { start = residentMegabytes() }
    func sample() {
        guard let start, let now = residentMegabytes() else { return }
        peak = Swift.max(peak ?? 0, now - start)
    }
    var text: String { peak.map { String(format: "%.0f MiB", $0) } ?? "n/a" }
    /// Prints `line` once per process.
    func printOnce(_ line: String) {
        guard !printed else { return }
        printed = true
        print(line)
    }
}

/// A copy of `template` for one iteration of a workload that consumes its rows.
private func copyOfStore(_ template: URL, _ name: String) -> URL {
    let url = StoreBench.temporaryFile(name)
    try! FileManager.default.copyItem(at: template, to: url)
    return url
}

func registerSQLiteStoreWriteBenchmarks(in suite: BenchmarkSuite) {
    let count = 20_000
    let model = LazyStoreFixture { StoreBench.model() }

    // store_update_20k: one context holds 20,000 fetched objects; each iteration changes one
    // attribute of all of them and saves.
    final class UpdateFixture {
        let context: ManagedObjectContext
        let objects: [ManagedObject]
        let raw: SQLiteConnection
        var round: Int64 = 0
        init(model: ManagedObjectModel, count: Int) {
            let file = StoreBench.storeFile(rows: count, model: model, name: "update")
            let coordinator = PersistentStoreCoordinator(model: model)
            try! coordinator.addStore(SQLitePersistentStore(url: file))
            context = ManagedObjectContext(coordinator: coordinator)
            objects = try! context.fetch(EntityFetchRequest(entityName: "Record"))
            for object in objects { blackHole(try? object.value(forKey: "i2")) }
            raw = try! SQLiteConnection(path: StoreBench.storeFile(rows: count, model: model, name: "update-raw").path, mode: .readWrite)
        }
    }
    let update = LazyStoreFixture { UpdateFixture(model: model.wrapped, count: count) }
    suite.add("store_update_20k", baseline: "raw_sqlite_update", operationsPerIteration: count, target: .ratio(3),
              note: "change one attribute of \(count) fetched objects and save (one transaction), per object",
              body: { iterations in
        let fixture = update.wrapped
        for _ in 0..<iterations {
            fixture.round += 1
            for object in fixture.objects { try! object.setValue(fixture.round, forKey: "i2") }
            try! fixture.context.save()
        }
    }, baseline: { iterations in
        let fixture = update.wrapped
        for _ in 0..<iterations {
            fixture.round += 1
            try! fixture.raw.transaction {
                for key in 1...count {
                    try fixture.raw.run("UPDATE ZRECORD SET ZI2 = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?",
                                        [.integer(fixture.round), .integer(Int64(key))])
                }
            }
        }
    })

    // store_save_update_20k: the store's part of store_update_20k alone: one save of 20,000
    // updated rows (10 values each, as a context hands them over) straight to the store.
    final class StoreSaveFixture {
        let store: SQLitePersistentStore
        var changes: StoreSaveChanges
        init(model: ManagedObjectModel, count: Int) {
            let file = StoreBench.storeFile(rows: count, model: model, name: "save-update")
            let coordinator = PersistentStoreCoordinator(model: model)
            store = SQLitePersistentStore(url: file)
            try! coordinator.addStore(store)
            let keys = StoreBench.integerKeys + StoreBench.doubleKeys + StoreBench.textKeys
            let ids = try! store.newObjectIDs(for: Array(repeating: "Record", count: 1)).first!
            let rows = (0..<count).map { index in
                var attributes: [String: KeyValueConstant] = [:]
                for (key, value) in zip(keys, StoreBench.values(index)) {
                    switch value {
                    case .integer(let integer): attributes[key] = .integer(integer)
                    case .real(let real): attributes[key] = .double(real)
                    case .text(let text): attributes[key] = .string(text)
                    default: break
                    }
                }
                let id = ManagedObjectID(entityName: "Record", storeIdentifier: ids.storeIdentifier!, primaryKey: Int64(index + 1))
                return StoreRow(objectID: id, version: 1, attributes: attributes)
            }
            changes = StoreSaveChanges(updated: rows)
        }
    }
    let storeSave = LazyStoreFixture { StoreSaveFixture(model: model.wrapped, count: count) }
    suite.add("store_save_update_20k", baseline: "raw_sqlite_update", operationsPerIteration: count, target: .none,
              note: "the store's part of store_update_20k: SQLitePersistentStore.save of \(count) updated rows of 10 values (one transaction, versions checked), per row",
              body: { iterations in
        let fixture = storeSave.wrapped
        for _ in 0..<iterations {
            let versions = try! fixture.store.save(fixture.changes)
            for index in fixture.changes.updated.indices { fixture.changes.updated[index].version += 1 }
            blackHole(versions)
        }
    }, baseline: { iterations in
        let fixture = update.wrapped
        for _ in 0..<iterations {
            fixture.round += 1
            try! fixture.raw.transaction {
                for key in 1...count {
                    try fixture.raw.run("UPDATE ZRECORD SET ZI2 = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?",
                                        [.integer(fixture.round), .integer(Int64(key))])
                }
            }
        }
    })

    // store_delete_20k: each iteration copies a 20,000-row file (both sides), then deletes
    // every row: objects fetched without their values (`includesPropertyValues = false`, Core
    // Data's idiom for a fetch to delete: keys and versions read, faults made) deleted in a
    // context and saved, or DELETE by key. store_delete_20k_values: the same with every value
    // fetched (the request's default), reported beside it.
    let template = LazyStoreFixture { StoreBench.storeFile(rows: count, model: model.wrapped, name: "delete") }
    func deleteEveryObject(includingValues: Bool) {
        let url = copyOfStore(template.wrapped, "delete-copy")
        defer { StoreBench.remove(url) }
        let coordinator = PersistentStoreCoordinator(model: model.wrapped)
        try! coordinator.addStore(SQLitePersistentStore(url: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = EntityFetchRequest(entityName: "Record")
        request.returnsObjectsAsFaults = true
        request.includesPropertyValues = includingValues
        for object in try! context.fetch(request) { context.delete(object) }
        try! context.save()
    }
    func rawDelete(iterations: Int) {
        for _ in 0..<iterations {
            let url = copyOfStore(template.wrapped, "delete-raw")
            defer { StoreBench.remove(url) }
            let connection = try! SQLiteConnection(path: url.path, mode: .readWrite)
            let keys = try! connection.rows("SELECT Z_PK FROM ZRECORD").compactMap { $0[0].integerValue }
            try! connection.transaction {
                for key in keys { try connection.run("DELETE FROM ZRECORD WHERE Z_PK = ?", [.integer(key)]) }
            }
        }
    }
    suite.add("store_delete_20k", baseline: "raw_sqlite_delete", operationsPerIteration: count, target: .ratio(3),
              note: "copy a \(count)-row file, fetch every object with includesPropertyValues = false (Core Data's fetch-to-delete idiom: keys and versions only), delete each, save (both sides copy), per object",
              body: { iterations in
        for _ in 0..<iterations { deleteEveryObject(includingValues: false) }
    }, baseline: rawDelete)
    suite.add("store_delete_20k_values", baseline: "raw_sqlite_delete", operationsPerIteration: count, target: .none,
              note: "store_delete_20k with every value fetched (includesPropertyValues = true, the default): the row cache filled and emptied again; compare with store_delete_20k",
              body: { iterations in
        for _ in 0..<iterations { deleteEveryObject(includingValues: true) }
    }, baseline: rawDelete)

    // store_fetch_pred: `i1 > %@ AND t1 BEGINSWITH 'a'` over 200,000 rows, indexed, sorted by i1.
    let fetchCount = 200_000
    let indexedModel = LazyStoreFixture { StoreBench.model(indexed: true) }
    let indexedFile = LazyStoreFixture { StoreBench.storeFile(rows: fetchCount, model: indexedModel.wrapped, name: "pred") }
    let threshold: Int64 = 100_000
    suite.add("store_fetch_pred", baseline: "raw_sqlite_select_where", operationsPerIteration: fetchCount, target: .ratio(1.5),
              note: "i1 > \(threshold) AND t1 BEGINSWITH 'a' sorted by i1 over \(fetchCount) indexed rows (25,000 match), attributes read, per row of the table",
              body: { iterations in
        let keys = StoreBench.integerKeys + StoreBench.doubleKeys + StoreBench.textKeys
        let predicate = try! KeyValuePredicate(format: "i1 > %@ AND t1 BEGINSWITH 'a'", threshold)
        for _ in 0..<iterations {
            let coordinator = PersistentStoreCoordinator(model: indexedModel.wrapped)
            try! coordinator.addStore(SQLitePersistentStore(url: indexedFile.wrapped))
            let context = ManagedObjectContext(coordinator: coordinator)
            let request = EntityFetchRequest(entityName: "Record", predicate: predicate,
                                             sortDescriptors: [KeyValueSortDescriptor(key: "i1")])
            for object in try! context.fetch(request) {
                for key in keys { blackHole(try? object.value(forKey: key)) }
            }
        }
    }, baseline: { iterations in
        for _ in 0..<iterations {
            let connection = try! SQLiteConnection(path: indexedFile.wrapped.path, mode: .readOnly)
            let records = try! connection.rows("SELECT \(StoreBench.columns) FROM ZRECORD WHERE Z_ENT = 1 AND ZI1 > ? AND ZT1 GLOB 'a*' ORDER BY ZI1",
                                               [.integer(threshold)]).map(PlainRecord.init)
            for record in records { blackHole(record.i1); blackHole(record.t3) }
        }
    })

    // store_fault_batch: 1,000,000 rows fetched with a batch size of 500, one attribute read
    // from each; the note gives both sides' peak memory.
    let faultCount = 1_000_000
    let faultFile = LazyStoreFixture { StoreBench.storeFile(rows: faultCount, model: model.wrapped, name: "faults") }
    let storePeak = MemoryPeak()
    let rawPeak = MemoryPeak()
    suite.add("store_fault_batch", baseline: "raw_sqlite_select_1m", operationsPerIteration: faultCount, target: .none,
              note: "walk \(faultCount) rows fetched with fetchBatchSize 500 reading i1, per row; resident-memory growth printed before store_fault_batch_memory",
              body: { iterations in
        for _ in 0..<iterations {
            storePeak.begin()
            let coordinator = PersistentStoreCoordinator(model: model.wrapped)
            try! coordinator.addStore(SQLitePersistentStore(url: faultFile.wrapped))
            let context = ManagedObjectContext(coordinator: coordinator)
            var request = EntityFetchRequest(entityName: "Record")
            request.fetchBatchSize = 500
            var sum: Int64 = 0
            let results = try! context.fetchBatched(request)
            storePeak.sample()
            for (index, object) in results.enumerated() {
                sum &+= (try? object.value(forKey: "i1") as? Int64) ?? 0
                if index % 50_000 == 0 { storePeak.sample() }
            }
            storePeak.sample()
            blackHole(sum)
        }
    }, baseline: { iterations in
        for _ in 0..<iterations {
            rawPeak.begin()
            let connection = try! SQLiteConnection(path: faultFile.wrapped.path, mode: .readOnly)
            let statement = try! connection.statement("SELECT ZI1 FROM ZRECORD WHERE Z_ENT = 1 ORDER BY Z_PK")
            try! statement.bind([])
            var sum: Int64 = 0
            var rows = 0
            while try! statement.step() {
                sum &+= statement.integer(at: 0)
                rows += 1
                if rows % 50_000 == 0 { rawPeak.sample() }
            }
            rawPeak.sample()
            blackHole(sum)
        }
    })
    suite.add("store_fault_batch_memory", baseline: "-", operationsPerIteration: 1, target: .none,
              note: "prints the resident-memory growth of the store_fault_batch runs once (run alone for a true figure); its timings mean nothing",
              body: { _ in
        storePeak.printOnce("resident growth: store_fault_batch: store \(storePeak.text), raw \(rawPeak.text)")
    }, baseline: { _ in })
}
