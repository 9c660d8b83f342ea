// PostgreSQL fetch with a predicate compiled to SQL (issue 19, pg-sql), beside raw libpq doing
// the same query into plain Swift objects. Needs a server: OBJECTGRAPH_POSTGRES_URL (for
// example `Scripts/with-postgres.sh swift run -c release benchmarks pg_`); without it the
// workload is skipped with a printed reason. See Docs/Performance.md.
import CLibPQ
import Foundation
import ObjectGraph
import PostgreSQLStore

/// One row read by the baseline: ten stored properties, as a hand-written record type.
private final class PostgreSQLPlainRecord {
    var i1, i2, i3, i4: Int64?
    var d1, d2, d3: Double?
    var t1, t2, t3: String?

    init(_ result: OpaquePointer, row: Int32) {
        func text(_ column: Int32) -> String? {
            PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
        }
        i1 = text(0).flatMap { Int64($0) }; i2 = text(1).flatMap { Int64($0) }
        i3 = text(2).flatMap { Int64($0) }; i4 = text(3).flatMap { Int64($0) }
        d1 = text(4).flatMap { Double($0) }; d2 = text(5).flatMap { Double($0) }; d3 = text(6).flatMap { Double($0) }
        t1 = text(7); t2 = text(8); t3 = text(9)
    }
}

/// A schema of 200,000 records of the store's layout, filled by the server (the same values
/// as the SQLite store's benchmarks), with indexes on `ZI1` and `ZT1`.
private struct PostgreSQLPredicateFixture {
    let url: String
    let schema = "objectgraph_bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    let model: ManagedObjectModel
    static let keys = ["i1", "i2", "i3", "i4", "d1", "d2", "d3", "t1", "t2", "t3"]

    init(url: String, rows: Int) {
        self.url = url
        let properties: [PropertyDescription] = Self.keys.prefix(4).map { .attribute($0, .integer64) }
            + Self.keys[4..<7].map { .attribute($0, .double) } + Self.keys.suffix(3).map { .attribute($0, .string) }
        var entity = EntityDescription(name: "Record", properties: properties)
        entity.indexes = [FetchIndexDescription(name: "byI1", elements: [.init(propertyName: "i1")]),
                          FetchIndexDescription(name: "byT1", elements: [.init(propertyName: "t1")])]
        model = try! ManagedObjectModel(entities: [entity])
        let coordinator = PersistentStoreCoordinator(model: model)
        try! coordinator.addStore(PostgreSQLPersistentStore(url: url, schema: schema))
        let fill = """
            INSERT INTO "ZRECORD" SELECT g + 1, 1, 1, g, g * 7, g % 100, -g, g * 0.5, (g % 1000)::float8, 1.0 / (g + 1)::float8,
              (CASE WHEN g % 4 = 0 THEN 'a' ELSE 'n' END) || 'ame ' || g, CASE WHEN g % 2 = 0 THEN 'alpha' ELSE 'beta' END,
              't' || (g % 97) FROM generate_series(0, \(rows - 1)) g;
            UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = \(rows) WHERE "Z_NAME" = 'Record';
            CREATE INDEX "ZRECORD_ZI1" ON "ZRECORD" ("ZI1"); CREATE INDEX "ZRECORD_ZT1" ON "ZRECORD" ("ZT1");
            ANALYZE "ZRECORD"
            """
        raw { connection in
            let result = PQexec(connection, fill)
            precondition(PQresultStatus(result) == PGRES_COMMAND_OK, String(cString: PQerrorMessage(connection)))
            PQclear(result)
        }
    }

    /// Runs `body` on a new raw libpq connection in the fixture's schema.
    func raw<T>(_ body: (OpaquePointer) -> T) -> T {
        guard let connection = PQconnectdb(url), PQstatus(connection) == CONNECTION_OK else { fatalError("pg_fetch_pred: no connection") }
        defer { PQfinish(connection) }
        PQclear(PQexec(connection, "SET search_path TO \"\(schema)\""))
        return body(connection)
    }

    func drop() {
        raw { PQclear(PQexec($0, "DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE")) }
    }
}

/// The fixture, made on first use and dropped at exit. `nonisolated(unsafe)`: the
/// benchmarks run one at a time on the main thread.
nonisolated(unsafe) private var predicateFixture: PostgreSQLPredicateFixture?

func registerPostgreSQLFetchBenchmarks(in suite: BenchmarkSuite) {
    guard let url = ProcessInfo.processInfo.environment["OBJECTGRAPH_POSTGRES_URL"], !url.isEmpty else {
        print("pg_fetch_pred: skipped: OBJECTGRAPH_POSTGRES_URL is not set (run under Scripts/with-postgres.sh)")
        return
    }
    let rows = 200_000
    let threshold: Int64 = 100_000
    func fixture() -> PostgreSQLPredicateFixture {
        if let predicateFixture { return predicateFixture }
        let made = PostgreSQLPredicateFixture(url: url, rows: rows)
        predicateFixture = made
        atexit { predicateFixture?.drop() }
        return made
    }
    // pg_fetch_pred: `i1 > %@ AND t1 BEGINSWITH 'a'` over 200,000 rows, indexed, sorted by i1.
    suite.add("pg_fetch_pred", baseline: "raw_libpq_select_where", operationsPerIteration: rows, target: .ratio(3),
              note: "i1 > \(threshold) AND t1 BEGINSWITH 'a' sorted by i1 over \(rows) indexed rows (25,000 match), attributes read, per row of the table",
              body: { iterations in
        let fixture = fixture()
        let predicate = try! KeyValuePredicate(format: "i1 > %@ AND t1 BEGINSWITH 'a'", threshold)
        for _ in 0..<iterations {
            let coordinator = PersistentStoreCoordinator(model: fixture.model)
            try! coordinator.addStore(PostgreSQLPersistentStore(url: fixture.url, schema: fixture.schema))
            let context = ManagedObjectContext(coordinator: coordinator)
            let request = EntityFetchRequest(entityName: "Record", predicate: predicate,
                                             sortDescriptors: [KeyValueSortDescriptor(key: "i1")])
            for object in try! context.fetch(request) {
                for key in PostgreSQLPredicateFixture.keys { blackHole(try? object.value(forKey: key)) }
            }
        }
    }, baseline: { iterations in
        let fixture = fixture()
        for _ in 0..<iterations {
            fixture.raw { connection in
                let sql = "SELECT \"ZI1\", \"ZI2\", \"ZI3\", \"ZI4\", \"ZD1\", \"ZD2\", \"ZD3\", \"ZT1\", \"ZT2\", \"ZT3\" FROM \"ZRECORD\" WHERE \"Z_ENT\" = 1 AND \"ZI1\" > $1::bigint AND \"ZT1\" LIKE 'a%' ORDER BY \"ZI1\""
                PQclear(PQprepare(connection, "pred", sql, 1, nil))
                let value = String(threshold)
                let result = value.withCString { pointer -> OpaquePointer? in
                    var values: [UnsafePointer<CChar>?] = [pointer]
                    return PQexecPrepared(connection, "pred", 1, &values, nil, nil, 0)
                }
                guard let result else { return }
                defer { PQclear(result) }
                var records: [PostgreSQLPlainRecord] = []
                for row in 0..<PQntuples(result) { records.append(PostgreSQLPlainRecord(result, row: row)) }
                for record in records { blackHole(record.i1); blackHole(record.t3) }
            }
        }
    })
}
