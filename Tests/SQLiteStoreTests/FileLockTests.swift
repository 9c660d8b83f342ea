import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// The locks SQLite holds on a store file survive everything the store does in this process:
/// on POSIX, closing any descriptor of a file drops every lock the process holds on it, so a
/// store that opened and closed the file by itself (to check its header) while another
/// coordinator of the process had it open left that coordinator without locks. Another
/// process then took itself for the file's last user, removed the `-wal` file on closing,
/// and the first coordinator's later saves went into the removed log: lost.
@Suite(.serialized) struct FileLockTests {
    /// Runs the reliability tests' helper with `arguments`; its output, trimmed.
    static func runHelper(_ arguments: [String]) throws -> String {
        let helper = try #require(ReliabilityTests.helper(), "sqlite-store-crash-helper is not built")
        let process = Process()
        process.executableURL = helper
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The Entry serials a new coordinator reads from the file.
    static func serials(at url: URL) throws -> [Int64] {
        let coordinator = PersistentStoreCoordinator(model: try ReliabilityTests.model())
        try coordinator.addStore(SQLitePersistentStore(url: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.fetch(EntityFetchRequest(entityName: "Entry")).compactMap { try $0.value(forKey: "serial") as? Int64 }.sorted()
    }

    @Test func savesOfACoordinatorStayDurableWhenASecondCoordinatorOpensTheFileAndAnotherProcessClosesIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Locks.sqlite")
        try ReliabilityTests.makeStore(url)
        let first = PersistentStoreCoordinator(model: try ReliabilityTests.model())
        try first.addStore(SQLitePersistentStore(url: url))
        let context = ManagedObjectContext(coordinator: first)
        func save(_ serial: Int64) throws {
            try context.insertNewObject(forEntityNamed: "Entry").setValue(serial, forKey: "serial")
            try context.save()
        }
        try save(1)
        // A second coordinator of this process opens the same file (and keeps it open).
        let second = PersistentStoreCoordinator(model: try ReliabilityTests.model())
        try second.addStore(SQLitePersistentStore(url: url))
        // Another process opens and closes the file: this process's connections still hold
        // their locks, so it is not the last user and leaves the write-ahead log alone.
        #expect(try Self.runHelper(["open-close", url.path]) == "entries 1")
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"), "the other process removed the -wal file of open connections")
        try save(2)
        try save(3)
        #expect(try Self.serials(at: url) == [1, 2, 3])
        withExtendedLifetime(second) {}
    }
}
