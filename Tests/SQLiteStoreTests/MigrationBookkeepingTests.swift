import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// The bookkeeping a migration and a new store write, against what Core Data wrote for the
/// same models (CoreDataPlus: SampleModel_V1.sqlite, and SampleModel_V2.sqlite, Core Data's
/// own migration of the V1 data to SampleModel2).
@Suite struct MigrationBookkeepingTests {
    /// `NSStoreModelVersionHashesDigest` of a store's `Z_PLIST`.
    static func digest(at url: URL) throws -> String? {
        try SQLitePersistentStore(url: url).savedMetadata()?[SQLiteStoreMetadata.versionHashesDigestKey] as? String
    }

    @Test func aNewStoreCarriesTheVersionHashesDigestCoreDataWritesForTheModel() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let apple = try directory.copyOfFixture("coredataplus/SampleModel_V1.sqlite")
        let ours = directory.file("Ours.sqlite")
        let (store, _) = try openStack(try SQLiteMigrationTests.coreDataPlusModel("SampleModel"), at: ours)
        let expected = try #require(try Self.digest(at: apple))
        #expect(store.metadata[SQLiteStoreMetadata.versionHashesDigestKey] as? String == expected)
        #expect(try Self.digest(at: ours) == expected)
        // An app's metadata does not replace it.
        try store.setMetadata(["AppKey": "1", SQLiteStoreMetadata.versionHashesDigestKey: "other"])
        #expect(try Self.digest(at: ours) == expected)
    }

    @Test func aLightweightMigrationKeepsTheKeyCountersAtTheLargestKeptKeys() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("coredataplus/SampleModel_V1.sqlite")
        let apple = try directory.copyOfFixture("coredataplus/SampleModel_V2.sqlite")
        let versions = try ["SampleModel", "SampleModel2"].map(SQLiteMigrationTests.coreDataPlusModel)
        let coordinator = PersistentStoreCoordinator(model: versions[1])
        try coordinator.addStore(with: SQLiteMigrationTests.migrating(url), sourceModels: versions)
        // Car, SportCar and LuxuryCar share Car's counter: 125, the largest key, as Core Data's
        // migration left it (no key taken per entity of the tree).
        let counters = "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_SUPER = 0 ORDER BY Z_ENT"
        #expect(try query(url, counters) == query(apple, counters))
        #expect(try query(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Car'") == [[.integer(125)]])
        #expect(try Self.digest(at: url) == Self.digest(at: apple))
    }
}
