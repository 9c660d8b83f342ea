import Dispatch
import Foundation
import Testing
import ManagedObjects
import SQLCompiling
import Synchronization
import TestSupport
@testable import PostgreSQLStore

/// The store's connection handling: the pool, reconnection, timeouts, libpq options, errors.
@Suite struct ConnectionPoolTests {
    static let secret = "Pw-s3cr3t-7f3a9"

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Counter", properties: [.attribute("name", .string), .attribute("value", .integer64)]),
        ])
    }

    /// The test server's URL with one more query key.
    static func url(_ base: String, adding query: String) -> String {
        base + (base.contains("?") ? "&" : "?") + query
    }

    /// The server processes of the connections with an `application_name`, ended.
    static func terminate(applicationName: String, url: String) throws -> Int {
        let admin = try PostgreSQLConnection(url: url)
        let result = try admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1::text", [.text(applicationName)])
        return result.rows.count
    }

    @Test func errorsWithoutSQLStateOrOfConnectionClassesMeanTheConnectionIsLost() {
        // libpq's own errors ("server closed the connection unexpectedly") carry no SQLSTATE.
        for state in ["", "08006", "08003", "57P01", "57P02", "57P03"] {
            #expect(PostgreSQLConnection.meansConnectionLoss(state), "\(state)")
        }
        for state in ["23505", "40001", "57014", "42P01"] {
            #expect(!PostgreSQLConnection.meansConnectionLoss(state), "\(state)")
        }
    }

    @Test func urlKeysOfTheStoreAreTakenOutAndTheRestReachesLibpq() throws {
        var own: [String: String] = [:]
        let stripped = PostgreSQLConnectionConfiguration.removingOwnKeys(
            from: "postgresql://u@h/db?pool_size=3&sslmode=require&statement_timeout=40", into: &own)
        #expect(stripped == "postgresql://u@h/db?sslmode=require")
        #expect(own == ["pool_size": "3", "statement_timeout": "40"])
        let configuration = PostgreSQLConnectionConfiguration(url: "postgresql://u@h/db?pool_size=3&statement_timeout=40")
        #expect(configuration.poolSize == 3)
        #expect(configuration.statementTimeoutMilliseconds == 40)
        #expect(PostgreSQLConnectionConfiguration(url: "postgresql://u@h/db").poolSize == PostgreSQLStoreOptions.defaultPoolSize)
        // Options win over the URL; libpq's connect_timeout is whole seconds, at least 2.
        let options = PostgreSQLStoreOptions(poolSize: 5, connectTimeout: .milliseconds(300), statementTimeout: .seconds(2),
                                             parameters: ["sslmode": "verify-full"])
        let winning = PostgreSQLConnectionConfiguration(url: "postgresql://u@h/db?pool_size=3&statement_timeout=40", options: options)
        #expect(winning.poolSize == 5)
        #expect(winning.statementTimeoutMilliseconds == 2000)
        #expect(winning.keywords.contains { $0 == ("connect_timeout", "2") })
        #expect(winning.keywords.contains { $0 == ("sslmode", "verify-full") })
        // key=value strings are left alone.
        #expect(PostgreSQLConnectionConfiguration(url: "host=/tmp dbname=x").libpqURL == "host=/tmp dbname=x")
    }

    @Test func theURLsSettingsApplyToEachConnection() throws {
        let base = try PostgreSQLTestServer.url()
        let connection = try PostgreSQLConnection(url: Self.url(base, adding: "statement_timeout=1234&pool_size=7"))
        #expect(try connection.execute("SHOW statement_timeout").rows == [["1234ms"]])
    }

    @Test func passwordsAreMaskedInEveryMessage() throws {
        let configuration = PostgreSQLConnectionConfiguration(
            url: "postgresql://app:\(Self.secret)@db.example/shop", options: PostgreSQLStoreOptions(parameters: ["password": "other-secret"]),
            environment: ["PGPASSWORD": "env-secret"])
        let text = configuration.scrubbed("x \(Self.secret) y other-secret z env-secret")
        #expect(text == "x ******** y ******** z ********")
        // Percent-encoded in the URL: both spellings are masked.
        let encoded = PostgreSQLConnectionConfiguration(url: "postgresql://app:p%40ss-word@db/x", environment: [:])
        #expect(encoded.scrubbed("p%40ss-word p@ss-word") == "******** ********")
        let pairs = PostgreSQLConnectionConfiguration(url: "host=db password='kv secret' user=u", environment: [:])
        #expect(pairs.scrubbed("kv secret") == "********")
    }

    @Test func noErrorOrDescriptionShowsThePassword() throws {
        let base = try PostgreSQLTestServer.url()
        var texts: [String] = []
        func record(_ body: () throws -> Void) {
            do { try body(); Issue.record("no error") } catch {
                texts.append("\(error)")
                texts.append(String(reflecting: error))
                texts.append(error.localizedDescription)
                if let error = error as? PostgreSQLStoreError { texts.append(error.errorDescription ?? "") }
            }
        }
        // The test server trusts local connections: a password in the URL is accepted and unused.
        let withPassword = Self.url(base, adding: "password=\(Self.secret)")
        let options = PostgreSQLStoreOptions(statementTimeout: .milliseconds(50), parameters: ["password": Self.secret])
        record { _ = try PostgreSQLConnection(url: "postgresql://app:\(Self.secret)@/nodb?host=/nonexistent-folder") }
        record { _ = try PostgreSQLConnection(url: "postgresql://app:\(Self.secret)@[::1") }
        record { _ = try PostgreSQLConnection(url: Self.url(withPassword, adding: "sslmode=bogus")) }
        let connection = try PostgreSQLConnection(configuration: PostgreSQLConnectionConfiguration(url: withPassword, options: options))
        record { try connection.execute("SELECT * FROM \"NO_TABLE\"") }
        record { try connection.execute("SELECT pg_sleep(2)") }
        record { try connection.execute("SELECT $1::bigint", [.text(Self.secret)]) }
        try TestDatabase.run { database in
            let store = PostgreSQLPersistentStore(url: Self.url(database.url, adding: "password=\(Self.secret)"), schema: database.schema,
                                                  options: options)
            record { _ = try store.fetch(StoreFetchRequest(entityNames: ["Counter"])) }
            try store.load(for: try Self.model())
            texts.append(String(describing: store))
            texts.append(String(reflecting: store))
            var dumped = ""
            dump(store, to: &dumped)
            texts.append(dumped)
        }
        #expect(texts.count >= 20)
        for text in texts { #expect(!text.contains(Self.secret), "the password appears in: \(text)") }
    }

    @Test func errorsNameTheServerAndTheStatement() throws {
        let base = try PostgreSQLTestServer.url()
        let connection = try PostgreSQLConnection(configuration: PostgreSQLConnectionConfiguration(
            url: base, options: PostgreSQLStoreOptions(statementTimeout: .milliseconds(30))))
        #expect(connection.server.hasSuffix(":5432/objectgraph") || connection.server.contains("/objectgraph"))
        do {
            try connection.execute("SELECT pg_sleep(1)")
            Issue.record("the statement was not cancelled")
        } catch let error as PostgreSQLStoreError {
            guard case .timedOut = error.code else { Issue.record("wrong error \(error)"); return }
            #expect(error.statement == "SELECT pg_sleep(1)")
            #expect(error.description.contains("SELECT pg_sleep(1)"))
            #expect(error.description.contains(connection.server))
        }
        #expect(try connection.execute("SELECT 1").rows == [["1"]], "the connection survives a timeout")
    }

    @Test func tlsAndOtherLibpqKeywordsPassThrough() throws {
        let base = try PostgreSQLTestServer.url()
        for make in [{ try PostgreSQLConnection(url: Self.url(base, adding: "sslmode=bogus")) },
                     { try PostgreSQLConnection(configuration: PostgreSQLConnectionConfiguration(
                         url: base, options: PostgreSQLStoreOptions(parameters: ["sslmode": "bogus"]))) }] {
            do {
                _ = try make()
                Issue.record("libpq accepted sslmode=bogus")
            } catch let error as PostgreSQLStoreError {
                guard case .connectionFailed(let message) = error.code else { Issue.record("wrong error \(error)"); return }
                #expect(message.contains("sslmode"))
            }
        }
        let named = try PostgreSQLConnection(configuration: PostgreSQLConnectionConfiguration(
            url: base, options: PostgreSQLStoreOptions(parameters: ["sslmode": "prefer", "application_name": "og-tls-test"])))
        #expect(try named.execute("SHOW application_name").rows == [["og-tls-test"]])
    }

    @Test func repeatedStatementsArePreparedOnceAndBehaveTheSame() throws {
        try TestDatabase.run { database in
            let connection = try database.connection()
            try connection.execute("CREATE TABLE t (v bigint, b bytea)")
            for i in 0..<5 {
                try connection.execute("INSERT INTO t VALUES ($1::bigint, $2::bytea)", [.integer(Int64(i)), .bytes(Data([0, UInt8(i), 39]))])
            }
            #expect(try connection.execute("SELECT statement FROM pg_prepared_statements").rows
                    == [["INSERT INTO t VALUES ($1::bigint, $2::bytea)"]])
            for _ in 0..<3 {
                let rows = try connection.execute("SELECT v, b FROM t ORDER BY v").rows
                #expect(rows.map { $0[0] } == ["0", "1", "2", "3", "4"])
                #expect(rows.compactMap { $0[1].flatMap(PostgreSQLSchema.bytes) } == (0..<5).map { Data([0, UInt8($0), 39]) })
            }
            for _ in 0..<3 {
                do {
                    try connection.execute("SELECT * FROM \"NO_TABLE\"")
                    Issue.record("no error")
                } catch let error as PostgreSQLStoreError {
                    #expect(error.sqlState == "42P01")
                }
            }
        }
    }

    @Test func thePoolOpensAtMostItsSizeAndReusesConnections() throws {
        let base = try PostgreSQLTestServer.url()
        let pool = PostgreSQLConnectionPool(configuration: PostgreSQLConnectionConfiguration(url: Self.url(base, adding: "pool_size=2")))
        let busiest = Atomic<Int>(0)
        let busy = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            try? pool.withConnection { connection in
                let now = busy.add(1, ordering: .relaxed).newValue
                busiest.max(now, ordering: .relaxed)
                try connection.execute("SELECT pg_sleep(0.05)")
                busy.subtract(1, ordering: .relaxed)
            }
        }
        #expect(busiest.load(ordering: .relaxed) <= 2)
        #expect(pool.connectionsOpened <= 2)
        #expect(pool.idleCount == pool.connectionsOpened)
        for _ in 0..<5 { try pool.withConnection { try $0.execute("SELECT 1") } }
        #expect(pool.connectionsOpened <= 2, "idle connections are reused")
    }

    @Test func aStoreReconnectsAfterItsConnectionsAreLost() throws {
        try TestDatabase.run { database in
            let name = "og-reconnect-" + UUID().uuidString.prefix(8)
            let store = PostgreSQLPersistentStore(url: database.url, schema: database.schema,
                                                  options: PostgreSQLStoreOptions(parameters: ["application_name": name]))
            let coordinator = PersistentStoreCoordinator(model: try Self.model())
            try coordinator.addStore(store)
            let context = ManagedObjectContext(coordinator: coordinator)
            let counter = try context.insertNewObject(forEntityNamed: "Counter")
            try counter.setValue(Int64(1), forKey: "value")
            try context.save()
            let opened = store.pool.connectionsOpened
            #expect(try Self.terminate(applicationName: name, url: database.url) >= 1)
            // The next call finds its connection dead, connects again and runs once more.
            #expect(try context.fetch(EntityFetchRequest(entityName: "Counter")).count == 1)
            #expect(store.pool.connectionsOpened > opened)
            _ = try Self.terminate(applicationName: name, url: database.url)
            try counter.setValue(Int64(2), forKey: "value")
            try context.save()   // lost before COMMIT: rolled back by the server, run again
            let check = try database.connection()
            #expect(try check.execute("SELECT \"ZVALUE\", \"Z_OPT\" FROM \"ZCOUNTER\"").rows == [["2", "2"]])
        }
    }

    @Test func aCommitWhoseOutcomeIsUnknownIsReportedNotRetried() throws {
        try TestDatabase.run { database in
            let setup = try database.connection()
            try setup.execute("CREATE TABLE t (v bigint)")
            // A deferred trigger runs at COMMIT and sleeps: the connection is ended then.
            try setup.execute("CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(3); RETURN NULL; END $$")
            try setup.execute("CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON t DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow()")
            let name = "og-commit-" + UUID().uuidString.prefix(8)
            let schema = SQLDialect.postgreSQL.quoted(database.schema)
            let pool = PostgreSQLConnectionPool(configuration: PostgreSQLConnectionConfiguration(
                url: database.url, options: PostgreSQLStoreOptions(parameters: ["application_name": name]))) { connection in
                try connection.execute("SET search_path TO \(schema)")
            }
            let runs = Atomic<Int>(0)
            let killer = Thread {
                Thread.sleep(forTimeInterval: 0.5)
                _ = try? Self.terminate(applicationName: name, url: database.url)
            }
            killer.start()
            do {
                try pool.withConnection(retrying: true) { connection in
                    runs.add(1, ordering: .relaxed)
                    try connection.transaction { try connection.execute("INSERT INTO t VALUES (1)") }
                }
                Issue.record("the COMMIT succeeded")
            } catch let error as PostgreSQLStoreError {
                guard case .commitOutcomeUnknown = error.code else { Issue.record("wrong error \(error)"); return }
                #expect(error.isConnectionFailure)
                #expect(error.description.contains("COMMIT"))
            }
            #expect(runs.load(ordering: .relaxed) == 1, "never run again")
        }
    }

    /// Ends the server process `pid` and waits until it is gone.
    static func terminate(pid: Int64, url: String) throws {
        let admin = try PostgreSQLConnection(url: url)
        _ = try admin.execute("SELECT pg_terminate_backend($1::int)", [.integer(pid)])
        for _ in 0..<500 {
            let left = try admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = $1::int", [.integer(pid)])
            if left.rows.first?.first == "0" { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
        Issue.record("the server process \(pid) did not end")
    }

    @Test func aReadLostAtItsCommitIsRunAgainAndASaveLostThereIsNot() throws {
        try TestDatabase.run { database in
            let pool = PostgreSQLConnectionPool(configuration: PostgreSQLConnectionConfiguration(url: database.url))
            // The body's queries have run; its server process ends before the COMMIT is sent.
            func endingBeforeCommit(_ connection: PostgreSQLConnection, first: Bool) throws -> String? {
                let answer = try connection.execute("SELECT 'read'").rows.first?.first ?? nil
                if first {
                    let own = try connection.execute("SELECT pg_backend_pid()")
                    let pid = try #require(PostgreSQLRows.integer(own.rows.first?.first ?? nil))
                    try Self.terminate(pid: pid, url: database.url)
                }
                return answer
            }
            let reads = Atomic<Int>(0)
            let value = try pool.withConnection(retrying: true) { connection in
                let run = reads.add(1, ordering: .relaxed).newValue
                return try connection.readOnlyTransaction { try endingBeforeCommit(connection, first: run == 1) }
            }
            #expect(value == "read")
            #expect(reads.load(ordering: .relaxed) == 2, "the read ran again on a new connection")
            let writes = Atomic<Int>(0)
            #expect {
                try pool.withConnection(retrying: true) { connection in
                    writes.add(1, ordering: .relaxed)
                    try connection.transaction { _ = try endingBeforeCommit(connection, first: true) }
                }
            } throws: { error in
                guard let error = error as? PostgreSQLStoreError, case .commitOutcomeUnknown = error.code else { return false }
                return true
            }
            #expect(writes.load(ordering: .relaxed) == 1, "a transaction that may write is never run again")
        }
    }

    @Test func aRoleWithOnlyTheRightsOnItsSchemaCreatesAndUsesAStore() throws {
        try TestDatabase.run { database in
            let admin = try PostgreSQLConnection(url: database.url)
            let role = "og_limited_" + UUID().uuidString.prefix(8).lowercased()
            let q = SQLDialect.postgreSQL.quoted
            try admin.execute("CREATE ROLE \(q(role)) LOGIN NOINHERIT")
            defer {
                _ = try? admin.execute("DROP SCHEMA IF EXISTS \(q(database.schema)) CASCADE")
                _ = try? admin.execute("DROP OWNED BY \(q(role))")
                _ = try? admin.execute("DROP ROLE IF EXISTS \(q(role))")
            }
            try admin.execute("CREATE SCHEMA \(q(database.schema))")
            try admin.execute("GRANT CONNECT ON DATABASE \(q(try #require(admin.execute("SELECT current_database()").rows.first?.first ?? nil))) TO \(q(role))")
            try admin.execute("GRANT USAGE, CREATE ON SCHEMA \(q(database.schema)) TO \(q(role))")
            try admin.execute("REVOKE ALL ON SCHEMA public FROM \(q(role))")
            let options = PostgreSQLStoreOptions(parameters: ["user": role])
            // The role cannot create schemas or touch another schema's tables.
            let limited = try PostgreSQLConnection(configuration: PostgreSQLConnectionConfiguration(url: database.url, options: options))
            #expect(throws: PostgreSQLStoreError.self) { try limited.execute("CREATE SCHEMA \(q(database.schema + "_x"))") }
            for _ in 0..<2 {
                let coordinator = PersistentStoreCoordinator(model: try Self.model())
                try coordinator.addStore(PostgreSQLPersistentStore(url: database.url, schema: database.schema, options: options))
                let context = ManagedObjectContext(coordinator: coordinator)
                let counter = try context.insertNewObject(forEntityNamed: "Counter")
                try counter.setValue("c", forKey: "name")
                try context.save()
                try counter.setValue(Int64(3), forKey: "value")
                try context.save()
                let all = try context.fetch(EntityFetchRequest(entityName: "Counter"))
                context.delete(all[0])
                try context.save()
            }
            #expect(try admin.execute("SELECT tableowner FROM pg_tables WHERE schemaname = $1::text AND tablename = 'ZCOUNTER'",
                                      [.text(database.schema)]).rows == [[role]])
        }
    }
}
