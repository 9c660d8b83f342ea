import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// `"SQLite"` is known by name in a process that made an ``SQLitePersistentStore`` without a
/// description (the registry is global to the process: the helper is a process where nothing
/// registered it).
@Suite struct StoreTypeByNameTests {
    @Test func metadataAndCompatibilityByTheTypeNameAfterAddingAStoreMadeDirectly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("ByName.sqlite")
        try ReliabilityTests.makeStore(url)
        #expect(try FileLockTests.runHelper(["metadata", url.path]) == "uuid true compatible true")
    }
}
