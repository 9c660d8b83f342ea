// Transient attributes of objects fetched from an SQLite store start at their default values
// (trial14 F1; the shared body is TestSupport/TransientDefaults).
import Foundation
import ManagedObjects
import SQLiteStore
import Testing
import TestSupport

@Suite struct SQLiteTransientDefaultTests {
    @Test func fetchedObjectsOfTheSQLiteStoreHoldTransientDefaults() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("TransientDefaults-\(UUID().uuidString).sqlite")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
        try TransientDefaults.run(TestStoreFactory("sqlite") { SQLitePersistentStore(url: url) })
    }
}
