// PostgreSQL store workloads (issue 19, pg-ops): insert, fetch, update and delete through
// contexts, each beside the same rows written or read with raw libpq prepared statements
// (PQprepare / PQexecPrepared, text results parsed into a plain record) in the same process.
// They run when OBJECTGRAPH_POSTGRES_URL names a server (Scripts/with-postgres.sh sets it);
// otherwise one line says they were skipped. See Docs/Performance.md and Docs/PostgreSQLStore.md.
import CLibPQ
import Foundation
import ObjectGraph
import PostgreSQLStore

/// Builds a value on first use, so filtered-out (and listed) workloads cost nothing.
private final class LazyPostgreSQLFixture<Value> {
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

/// One row read by the raw side: ten stored properties, as a hand-written record type.
private final class PostgreSQLPlainRecord {
    var i1, i2, i3, i4: Int64?
    var d1, d2, d3: Double?
    var t1, t2, t3: String?
    init(_ result: OpaquePointer, _ row: Int32) {
        func text(_ column: Int32) -> String? {
            PQgetisnull(result, row, column) != 0 ? nil : String(cString: PQgetvalue(result, row, column))
        }
        i1 = text(0).flatMap { Int64($0) }; i2 = text(1).flatMap { Int64($0) }
        i3 = text(2).flatMap { Int64($0) }; i4 = text(3).flatMap { Int64($0) }
        d1 = text(4).flatMap { Double($0) }; d2 = text(5).flatMap { Double($0) }; d3 = text(6).flatMap { Double($0) }
        t1 = text(7); t2 = text(8); t3 = text(9)
    }
}

/// Raw libpq: one connection, prepared statements, text parameters.
private final class RawPostgreSQL {
    let handle: OpaquePointer
    init(url: String, schema: String) {
        handle = PQconnectdb(url)!
        precondition(PQstatus(handle) == CONNECTION_OK, String(cString: PQerrorMessage(handle)))
        run("SET client_min_messages TO warning")   // no NOTICE lines between the results
        run("CREATE SCHEMA IF NOT EXISTS \"\(schema)\"")
        run("SET search_path TO \"\(schema)\"")
    }
    deinit { PQfinish(handle) }

    /// Runs a statement without parameters; returns the result (cleared by the caller).
    @discardableResult
    func run(_ sql: String) -> Int {
        let result = PQexec(handle, sql)!
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        precondition(status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK, String(cString: PQresultErrorMessage(result)))
        return Int(PQntuples(result))
    }

    func prepare(_ name: String, _ sql: String) {
        let result = PQprepare(handle, name, sql, 0, nil)!
        defer { PQclear(result) }
        precondition(PQresultStatus(result) == PGRES_COMMAND_OK, String(cString: PQresultErrorMessage(result)))
    }

    /// Runs a prepared statement with text parameters; `read` sees the result.
    func execute(_ name: String, _ parameters: [String], read: (OpaquePointer) -> Void = { _ in }) {
        let copies = parameters.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) }
        let result = PQexecPrepared(handle, name, Int32(parameters.count), pointers, nil, nil, 0)!
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        precondition(status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK, String(cString: PQresultErrorMessage(result)))
        read(result)
    }
}

private enum PostgreSQLBench {
    static let keys = ["i1", "i2", "i3", "i4", "d1", "d2", "d3", "t1", "t2", "t3"]
    static let columns = "\"ZI1\", \"ZI2\", \"ZI3\", \"ZI4\", \"ZD1\", \"ZD2\", \"ZD3\", \"ZT1\", \"ZT2\", \"ZT3\""
    static let table = "CREATE TABLE \"ZRECORD\" (\"Z_PK\" bigint PRIMARY KEY, \"Z_ENT\" integer NOT NULL, \"Z_OPT\" bigint NOT NULL, \"ZI1\" bigint, \"ZI2\" bigint, \"ZI3\" bigint, \"ZI4\" bigint, \"ZD1\" double precision, \"ZD2\" double precision, \"ZD3\" double precision, \"ZT1\" text, \"ZT2\" text, \"ZT3\" text)"

    static func model() -> ManagedObjectModel {
        let properties: [PropertyDescription] = keys.prefix(4).map { .attribute($0, .integer64) }
            + keys[4..<7].map { .attribute($0, .double) } + keys[7...].map { .attribute($0, .string) }
        return try! ManagedObjectModel(entities: [EntityDescription(name: "Record", properties: properties)])
    }

    static func schemaName(_ what: String) -> String {
        "bench_" + what + "_" + UUID().uuidString.prefix(8).lowercased()
    }

    /// The values of row `index`, as Swift values (the store side) and as text (the raw side).
    static func values(_ index: Int) -> [any Sendable] {
        let i = Int64(index)
        return [i, i &* 7, i % 100, -i, Double(index) * 0.5, Double(index % 1000), 1.0 / Double(index + 1),
                (index % 4 == 0 ? "a" : "n") + "ame \(index)", index % 2 == 0 ? "alpha" : "beta", "t\(index % 97)"]
    }

    static func texts(_ index: Int) -> [String] {
        values(index).map { value in
            if let double = value as? Double { return String(double) }
            return "\(value)"
        }
    }

    static func setValues(_ object: ManagedObject, _ index: Int) {
        for (key, value) in zip(keys, values(index)) {
            switch value {
            case let integer as Int64: try! object.setValue(integer, forKey: key)
            case let double as Double: try! object.setValue(double, forKey: key)
            case let text as String: try! object.setValue(text, forKey: key)
            default: break
            }
        }
    }

    /// A loaded store in a new schema, and its context.
    static func store(_ url: String, schema: String) -> (PostgreSQLPersistentStore, ManagedObjectContext) {
        let store = PostgreSQLPersistentStore(url: url, schema: schema)
        let coordinator = PersistentStoreCoordinator(model: model())
        try! coordinator.addStore(store)
        return (store, ManagedObjectContext(coordinator: coordinator))
    }

    /// A store schema holding `count` rows, written by the server in one statement.
    static func filledStore(_ url: String, rows count: Int, name: String) -> String {
        let schema = schemaName(name)
        let (store, _) = store(url, schema: schema)
        blackHole(store)
        let raw = RawPostgreSQL(url: url, schema: schema)
        fill(raw, count: count, keyed: true)
        return schema
    }

    /// `count` rows of the values above (`keyed`: also moves the store's key counter).
    static func fill(_ raw: RawPostgreSQL, count: Int, keyed: Bool) {
        raw.run("""
            INSERT INTO "ZRECORD" ("Z_PK", "Z_ENT", "Z_OPT", \(columns))
            SELECT n + 1, 1, 1, n, n * 7, n % 100, -n, n * 0.5, (n % 1000)::double precision, 1.0 / (n + 1),
                   CASE WHEN n % 4 = 0 THEN 'a' ELSE 'n' END || 'ame ' || n, CASE WHEN n % 2 = 0 THEN 'alpha' ELSE 'beta' END, 't' || (n % 97)
            FROM generate_series(0, \(count - 1)) AS n
            """)
        if keyed { raw.run("UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = \(count) WHERE \"Z_NAME\" = 'Record'") }
    }

    static func drop(_ url: String, _ schema: String) {
        RawPostgreSQL(url: url, schema: schema).run("DROP SCHEMA \"\(schema)\" CASCADE")
    }
}

func registerPostgreSQLOperationBenchmarks(in suite: BenchmarkSuite) {
    guard let url = ProcessInfo.processInfo.environment["OBJECTGRAPH_POSTGRES_URL"], !url.isEmpty else {
        print("# pg_insert_20k, pg_fetch_200k, pg_update_20k, pg_delete_20k: skipped, OBJECTGRAPH_POSTGRES_URL is not set (run through Scripts/with-postgres.sh)")
        return
    }
    let count = 20_000
    let fetchCount = 200_000

    suite.add("pg_insert_20k", baseline: "raw_libpq_insert", operationsPerIteration: count, target: .ratio(3),
              note: "\(count) objects of 10 attributes inserted in a context and saved into new tables, per object",
              body: { iterations in
        for _ in 0..<iterations {
            let schema = PostgreSQLBench.schemaName("insert")
            let (store, context) = PostgreSQLBench.store(url, schema: schema)
            for index in 0..<count {
                PostgreSQLBench.setValues(try! context.insertNewObject(forEntityNamed: "Record"), index)
            }
            try! context.save()
            try! store.destroy()
        }
    }, baseline: { iterations in
        for _ in 0..<iterations {
            let schema = PostgreSQLBench.schemaName("insert_raw")
            let raw = RawPostgreSQL(url: url, schema: schema)
            raw.run(PostgreSQLBench.table)
            raw.prepare("insert", "INSERT INTO \"ZRECORD\" (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \(PostgreSQLBench.columns)) VALUES ($1, 1, 1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)")
            raw.run("BEGIN")
            for index in 0..<count { raw.execute("insert", [String(index + 1)] + PostgreSQLBench.texts(index)) }
            raw.run("COMMIT")
            raw.run("DROP SCHEMA \"\(schema)\" CASCADE")
        }
    })

    let fetchSchema = LazyPostgreSQLFixture { PostgreSQLBench.filledStore(url, rows: fetchCount, name: "fetch") }
    suite.add("pg_fetch_200k", baseline: "raw_libpq_select", operationsPerIteration: fetchCount, target: .ratio(3),
              note: "fetch \(fetchCount) objects in a new context and read their 10 attributes, per object",
              body: { iterations in
        for _ in 0..<iterations {
            let (_, context) = PostgreSQLBench.store(url, schema: fetchSchema.wrapped)
            for object in try! context.fetch(EntityFetchRequest(entityName: "Record")) {
                for key in PostgreSQLBench.keys { blackHole(try? object.value(forKey: key)) }
            }
        }
    }, baseline: { iterations in
        for _ in 0..<iterations {
            let raw = RawPostgreSQL(url: url, schema: fetchSchema.wrapped)
            raw.prepare("select", "SELECT \(PostgreSQLBench.columns) FROM \"ZRECORD\" WHERE \"Z_ENT\" = $1 ORDER BY \"Z_PK\"")
            var records: [PostgreSQLPlainRecord] = []
            raw.execute("select", ["1"]) { result in
                records.reserveCapacity(Int(PQntuples(result)))
                for row in 0..<PQntuples(result) { records.append(PostgreSQLPlainRecord(result, row)) }
            }
            for record in records { blackHole(record.i1); blackHole(record.t3) }
        }
    })

    // pg_update_20k: one context holds 20,000 fetched objects; each iteration changes one
    // attribute of all of them and saves (one transaction); the raw side updates the same
    // column of 20,000 rows by key in one transaction.
    final class UpdateFixture {
        let context: ManagedObjectContext
        let objects: [ManagedObject]
        let raw: RawPostgreSQL
        var round: Int64 = 0
        init(url: String, count: Int) {
            (_, context) = PostgreSQLBench.store(url, schema: PostgreSQLBench.filledStore(url, rows: count, name: "update"))
            objects = try! context.fetch(EntityFetchRequest(entityName: "Record"))
            for object in objects { blackHole(try? object.value(forKey: "i2")) }
            raw = RawPostgreSQL(url: url, schema: PostgreSQLBench.schemaName("update_raw"))
            raw.run(PostgreSQLBench.table)
            PostgreSQLBench.fill(raw, count: count, keyed: false)
            raw.prepare("update", "UPDATE \"ZRECORD\" SET \"ZI2\" = $1, \"Z_OPT\" = \"Z_OPT\" + 1 WHERE \"Z_PK\" = $2")
        }
    }
    let update = LazyPostgreSQLFixture { UpdateFixture(url: url, count: count) }
    suite.add("pg_update_20k", baseline: "raw_libpq_update", operationsPerIteration: count, target: .ratio(3),
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
            fixture.raw.run("BEGIN")
            for key in 1...count { fixture.raw.execute("update", [String(fixture.round), String(key)]) }
            fixture.raw.run("COMMIT")
        }
    })

    // pg_delete_20k: each iteration fills a table with 20,000 rows (both sides, one
    // statement), then deletes every row: fetched objects deleted in a context and saved, or
    // DELETE by key.
    suite.add("pg_delete_20k", baseline: "raw_libpq_delete", operationsPerIteration: count, target: .ratio(3),
              note: "fill \(count) rows, fetch and delete every object, save (both sides fill), per object",
              body: { iterations in
        for _ in 0..<iterations {
            let schema = PostgreSQLBench.filledStore(url, rows: count, name: "delete")
            let (store, context) = PostgreSQLBench.store(url, schema: schema)
            var request = EntityFetchRequest(entityName: "Record")
            request.returnsObjectsAsFaults = true
            for object in try! context.fetch(request) { context.delete(object) }
            try! context.save()
            try! store.destroy()
        }
    }, baseline: { iterations in
        for _ in 0..<iterations {
            let schema = PostgreSQLBench.schemaName("delete_raw")
            let raw = RawPostgreSQL(url: url, schema: schema)
            raw.run(PostgreSQLBench.table)
            PostgreSQLBench.fill(raw, count: count, keyed: false)
            raw.prepare("keys", "SELECT \"Z_PK\" FROM \"ZRECORD\"")
            raw.prepare("delete", "DELETE FROM \"ZRECORD\" WHERE \"Z_PK\" = $1")
            var keys: [String] = []
            raw.execute("keys", []) { result in
                for row in 0..<PQntuples(result) { keys.append(String(cString: PQgetvalue(result, row, 0))) }
            }
            raw.run("BEGIN")
            for key in keys { raw.execute("delete", [key]) }
            raw.run("COMMIT")
            raw.run("DROP SCHEMA \"\(schema)\" CASCADE")
        }
    })
}
