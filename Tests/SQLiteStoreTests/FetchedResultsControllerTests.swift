// The fetched results controller's behaviour cases (TestSupport) on an SQLite store in a
// temporary file: the same results and the same reported changes as on the in-memory store.
import Foundation
import ManagedObjects
import SQLiteStore
import Testing
import TestSupport

@Suite struct SQLiteFetchedResultsControllerTests {
    @Test(arguments: FetchedResultsScenario.allCases)
    func behaviourOnSQLite(_ scenario: FetchedResultsScenario) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try scenario.run { SQLitePersistentStore(url: directory.file("movies.sqlite")) }
    }
}
