// A schema of its own for each test, on the test server (TestSupport/PostgreSQLTestServer).
import Foundation
import ManagedObjects
import SQLCompiling
import TestSupport
@testable import PostgreSQLStore

/// A PostgreSQL schema of its own for one test, dropped afterwards.
struct TestDatabase {
    let url: String
    let schema: String

    init() throws {
        url = try PostgreSQLTestServer.url()
        schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// A new store on the test's schema (another "process": its own connection).
    func store() -> PostgreSQLPersistentStore { PostgreSQLPersistentStore(url: url, schema: schema) }

    /// A factory for the shared context tests.
    var factory: TestStoreFactory { TestStoreFactory("postgresql") { [url, schema] in PostgreSQLPersistentStore(url: url, schema: schema) } }

    /// A connection of its own, in the test's schema.
    func connection() throws -> PostgreSQLConnection {
        let connection = try PostgreSQLConnection(url: url)
        try connection.execute("CREATE SCHEMA IF NOT EXISTS \(SQLDialect.postgreSQL.quoted(schema))")
        try connection.execute("SET search_path TO \(SQLDialect.postgreSQL.quoted(schema))")
        return connection
    }

    func drop() {
        _ = try? PostgreSQLConnection(url: url).execute("DROP SCHEMA IF EXISTS \(SQLDialect.postgreSQL.quoted(schema)) CASCADE")
    }

    /// Runs a body on a fresh schema, dropped afterwards.
    static func run(_ body: (TestDatabase) throws -> Void) throws {
        let database = try TestDatabase()
        defer { database.drop() }
        try body(database)
    }
}

extension ManagedObject {
    /// A property's value, or `nil` (for terse expectations).
    func stored(_ key: String) -> Any? { try? value(forKey: key) }
}
