// The fetched results controller's behaviour cases (TestSupport) on the PostgreSQL store, each
// on a schema of its own: the same results and reported changes as on the other stores.
import Foundation
import ManagedObjects
import PostgreSQLStore
import Testing
import TestSupport

@Suite struct PostgreSQLFetchedResultsControllerTests {
    @Test(arguments: FetchedResultsScenario.allCases)
    func behaviourOnPostgreSQL(_ scenario: FetchedResultsScenario) throws {
        try TestDatabase.run { database in try scenario.run { database.store() } }
    }
}
