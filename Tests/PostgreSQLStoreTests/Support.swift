// The test server: OBJECTGRAPH_POSTGRES_URL, or one started with Scripts/with-postgres.sh --serve
// for this test process (stopped when the process ends: the script waits on our pipe).
import Foundation
import ManagedObjects
import Synchronization
import TestSupport
@testable import PostgreSQLStore

enum TestServer {
    /// The server's URL, or an error saying how to get one.
    static func url() throws -> String {
        try shared.withLock { state in
            if let url = state.url { return url }
            if let url = ProcessInfo.processInfo.environment["OBJECTGRAPH_POSTGRES_URL"], !url.isEmpty {
                state.url = url
                return url
            }
            let url = try start()
            state.url = url
            return url
        }
    }

    struct NoServer: Error, CustomStringConvertible {
        var description: String
    }

    private struct State: ~Copyable {
        var url: String?
        var process: Process?
        var input: Pipe?
    }
    private static let shared = Mutex(State())

    /// Runs `Scripts/with-postgres.sh --serve`; the server lives until this process exits (its
    /// standard input, our pipe, closes then).
    private static func start() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("Scripts/with-postgres.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, "--serve"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw NoServer(description: "no PostgreSQL server: set OBJECTGRAPH_POSTGRES_URL, or run the tests as `Scripts/with-postgres.sh swift test` (starting \(script.path) failed: \(error))")
        }
        let line = output.fileHandleForReading.readLine()
        guard let line, line.hasPrefix("postgresql:") else {
            throw NoServer(description: "no PostgreSQL server: \(script.path) --serve could not start one (needs PostgreSQL 15: apt-get install postgresql-15); or set OBJECTGRAPH_POSTGRES_URL")
        }
        keep.withLock { $0 = (process, input) }
        return line
    }
    /// The serving script and our end of its standard input, kept open for the process's life.
    private static let keep = Mutex<(Process, Pipe)?>(nil)
}

extension FileHandle {
    /// The first line read, without its newline.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            let chunk = readData(ofLength: 1)
            guard let byte = chunk.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}

/// A PostgreSQL schema of its own for one test, dropped afterwards.
struct TestDatabase {
    let url: String
    let schema: String

    init() throws {
        url = try TestServer.url()
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
