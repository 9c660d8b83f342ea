import Foundation
import Testing
@testable import PostgreSQLStore

/// The connection: errors naming the server's message, values always bound as parameters.
@Suite struct ConnectionTests {
    @Test func badURLsAreThrownErrorsNamingTheProblem() throws {
        #expect(throws: PostgreSQLStoreError.self) { try PostgreSQLConnection(url: "postgresql://[::1") }
        do {
            _ = try PostgreSQLConnection(url: "postgresql://nobody:s3cr3t-password@/nodb?host=/nonexistent-folder")
            Issue.record("connected to a server that does not exist")
        } catch let error as PostgreSQLStoreError {
            guard case .connectionFailed = error.code else { Issue.record("wrong error \(error)"); return }
            #expect(error.description.contains("/nonexistent-folder"))
            #expect(!error.description.contains("s3cr3t-password"), "the password never appears in errors")
        }
    }

    /// The server's notices (a WARNING, the FATAL before it ends a connection) do not reach
    /// the app's standard error through libpq's default notice processor (trial13 T13).
    @Test func serverNoticesDoNotReachStandardError() throws {
        try TestDatabase.run { database in
            let connection = try database.connection()
            let marker = "lows13-notice-\(UUID().uuidString)"
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(marker + ".txt")
            #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
            defer { try? FileManager.default.removeItem(at: file) }
            let saved = dup(2)
            let capture = open(file.path, O_WRONLY)
            #expect(saved >= 0 && capture >= 0)
            dup2(capture, 2)
            let result = Result { try connection.execute("DO $$ BEGIN RAISE WARNING '\(marker)'; END $$") }
            fsync(2)
            dup2(saved, 2)
            close(saved)
            close(capture)
            _ = try result.get()
            let written = try String(contentsOf: file, encoding: .utf8)
            #expect(!written.contains(marker), "\(written)")
        }
    }

    @Test func failedStatementsNameTheServerMessageAndSQLState() throws {
        try TestDatabase.run { database in
            let connection = try database.connection()
            do {
                try connection.execute("SELECT * FROM \"NO_SUCH_TABLE\"")
                Issue.record("no error")
            } catch let error as PostgreSQLStoreError {
                #expect(error.sqlState == "42P01")
                #expect(error.description.contains("NO_SUCH_TABLE"))
                #expect(error.errorDescription == error.description)
            }
        }
    }

    @Test func hostileStringsTravelAsParameters() throws {
        try TestDatabase.run { database in
            let connection = try database.connection()
            try connection.execute("CREATE TABLE t (v text)")
            let hostile = ["'; DROP TABLE t; --", "O'Brien \"quoted\" $1 \\x00", "semi;colon", "ünï ✓ 🍎", ""]
            for value in hostile { try connection.execute("INSERT INTO t VALUES ($1::text)", [.text(value)]) }
            let back = try connection.execute("SELECT v FROM t").rows.map { $0[0] }
            #expect(back == hostile.map(Optional.some))
            // PostgreSQL text cannot hold NUL: a clear error, nothing sent.
            #expect(throws: PostgreSQLStoreError.self) { try connection.execute("INSERT INTO t VALUES ($1::text)", [.text("a\u{0}b")]) }
            // Bytes may hold anything.
            let bytes = Data([0, 39, 59, 92, 255])
            let echoed = try connection.execute("SELECT $1::bytea", [.bytes(bytes)]).rows[0][0]
            #expect(echoed.flatMap(PostgreSQLSchema.bytes) == bytes)
            #expect(try connection.execute("SELECT count(*) FROM t").rows[0][0] == "5")
        }
    }

    @Test func transactionsRollBackWhenTheBodyThrows() throws {
        struct Stop: Error {}
        try TestDatabase.run { database in
            let connection = try database.connection()
            try connection.execute("CREATE TABLE t (v bigint)")
            #expect(throws: Stop.self) {
                try connection.transaction {
                    try connection.execute("INSERT INTO t VALUES ($1::bigint)", [.integer(1)])
                    throw Stop()
                }
            }
            _ = try connection.transaction { try connection.execute("INSERT INTO t VALUES ($1::bigint)", [.integer(2)]) }
            #expect(try connection.execute("SELECT v FROM t").rows == [["2"]])
        }
    }
}
