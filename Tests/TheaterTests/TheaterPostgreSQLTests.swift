// The theater on a PostgreSQL database: `--store postgres://…`, a session saving there, and
// (TheaterFanOutTests) two processes seeing each other's saves through the fan-out.

import Foundation
import ManagedObjects
import PostgreSQLStore
import TestSupport
import Testing
@testable import Theater

/// A schema of its own on the test server for one test, named in the connection URL (libpq's
/// `options=-c search_path=…`), dropped afterwards.
struct TheaterDatabase {
    let schema = "theater_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    let url: String

    init() throws {
        let server = try PostgreSQLTestServer.url()
        let options = "-c search_path=\(schema)".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        url = server + (server.contains("?") ? "&" : "?") + "options=" + options
        try PostgreSQLConnection(url: server).execute("CREATE SCHEMA \"\(schema)\"")
    }

    func drop() { _ = try? PostgreSQLConnection(url: url).execute("DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE") }

    static func run(_ body: (TheaterDatabase) throws -> Void) throws {
        let database = try TheaterDatabase()
        defer { database.drop() }
        try body(database)
    }
}

@Suite("Theater: PostgreSQL", .serialized)
struct TheaterPostgreSQLTests {
    @Test(arguments: ["postgres://app@db.example/theater", "postgresql:///theater?host=/run/postgresql"])
    func aConnectionURLNamesAPostgreSQLStore(url: String) throws {
        #expect(try TheaterOptions.parse(["--store", url]).store == .postgreSQL(url))
        // Anything else is still a file path.
        #expect(try TheaterOptions.parse(["--store", "postgres.sqlite"]).store == .file(URL(fileURLWithPath: "postgres.sqlite")))
    }

    @Test func messagesNameTheDatabaseWithoutItsPassword() {
        let location = TheaterStoreLocation.postgreSQL("postgres://app:s3cret@db.example:5433/theater?sslmode=require&password=s3cret")
        #expect(location.displayName == "postgres://app@db.example:5433/theater?sslmode=require")
    }

    @Test func aServerThatCannotBeReachedIsOneErrorLine() throws {
        let url = "postgresql://app:s3cret@/theater?host=/nonexistent-folder"
        let error = try #require(throws: TheaterError.self) { try TheaterSession(store: .postgreSQL(url)) }
        #expect(error.description.hasPrefix("cannot open the store postgresql://app@/theater?host=/nonexistent-folder: "))
        #expect(!error.description.contains("s3cret") && !error.description.contains("\n"))
    }

    @Test func aSessionSavesToTheDatabaseAndTheNextOneReadsIt() throws {
        try TheaterDatabase.run { database in
            let first = try TheaterSession(store: .postgreSQL(database.url))
            _ = first.execute(setUpOdeon)
            _ = first.execute("add Alien 1979 8.5 117")
            #expect(first.execute("save").hasSuffix(": 2 inserted"))
            let second = try TheaterSession(store: .postgreSQL(database.url))
            #expect(second.listing.text == first.listing.text)
            #expect(second.listing.movies.map(\.title) == ["Alien"])
        }
    }
}
