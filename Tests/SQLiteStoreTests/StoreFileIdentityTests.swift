import Foundation
import Testing
import TestSupport
import ManagedObjects
@testable import SQLiteStore

/// One store file, one store (session 11's hostile trial, F8 and F9): the same file cannot be
/// added to a coordinator twice (its rows came back twice from every fetch), and a store whose
/// file was replaced or deleted while it was open refuses to save (its saves went to the old,
/// unlinked file, and were lost).
@Suite struct StoreFileIdentityTests {
    static func container(_ url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Lost", model: try LostChangeMatrix.model())
        container.storeDescriptions = [.sqlite(at: url)]
        try container.loadPersistentStores()
        return container
    }

    static func authorCount(_ coordinator: PersistentStoreCoordinator) throws -> Int {
        try ManagedObjectContext(coordinator: coordinator).count(for: EntityFetchRequest(entityName: "Author"))
    }

    static func text(_ error: any Error) -> String { (error as? any LocalizedError)?.errorDescription ?? "\(error)" }

    /// A coordinator on a stocked store file `name` in `directory`.
    static func stocked(_ directory: TemporaryDirectory, _ name: String) throws -> (URL, PersistentStoreCoordinator) {
        let url = directory.file(name)
        return (url, try LostChangeMatrix.stocked(TestStoreFactory("sqlite") { SQLitePersistentStore(url: url) }))
    }

    // MARK: F8

    @Test func loadingTheStoresTwiceThrowsAndKeepsOneStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Twice.sqlite")
        let container = try Self.container(url)
        _ = try LostChangeMatrix.stocked(TestStoreFactory("sqlite") { SQLitePersistentStore(url: url) })
        #expect { try container.loadPersistentStores() } throws: { Self.text($0).contains(url.path) }
        var reported: [String] = []
        container.loadPersistentStores { _, error in reported.append(error.map(Self.text) ?? "no error") }
        #expect(reported.count == 1 && reported[0].contains(url.path))
        #expect(container.coordinator.stores.count == 1)
        #expect(try Self.authorCount(container.coordinator) == 2)
    }

    @Test func theSameFileByAnotherPathThrows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (url, coordinator) = try Self.stocked(directory, "Same.sqlite")
        let link = directory.file("Link.sqlite")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
        let dotted = directory.url.appendingPathComponent("sub/../Same.sqlite")
        try FileManager.default.createDirectory(at: directory.file("sub"), withIntermediateDirectories: true)
        for other in [url, dotted, link] {
            #expect(throws: StoreManagementError.storeAlreadyAdded(PersistentStoreCoordinator.resolvedPath(of: url))) {
                try coordinator.addStore(SQLitePersistentStore(url: other))
            }
        }
        #expect(coordinator.stores.count == 1)
        #expect(try Self.authorCount(coordinator) == 2)
    }

    @Test func aCopyOfTheFileWithTheSameIdentifierThrows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (url, coordinator) = try Self.stocked(directory, "Original.sqlite")
        let copy = directory.file("Copy.sqlite")
        do {
            // A closed, checkpointed file to copy.
            let reader = try Self.container(url)
            _ = try Self.authorCount(reader.coordinator)
        }
        try FileManager.default.copyItem(at: url, to: copy)
        #expect { try coordinator.addStore(SQLitePersistentStore(url: copy)) } throws: {
            Self.text($0).contains(coordinator.stores[0].identifier)
        }
        #expect(coordinator.stores.count == 1)
    }

    // MARK: F9

    /// `mv other.sqlite store.sqlite` while the store is open (its -wal and -shm stay): the
    /// next save throws naming the file, and the file that took the path is not written.
    @Test(arguments: ["rename over", "delete and copy", "delete"])
    func aSaveAfterTheFileWasReplacedThrows(how: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Open.sqlite")
        let (other, _) = try Self.stocked(directory, "Other.sqlite")
        do { _ = try Self.authorCount(try Self.container(other).coordinator) }   // closed and checkpointed
        let container = try Self.container(url)
        let context = ManagedObjectContext(coordinator: container.coordinator)
        try context.insertNewObject(forEntityNamed: "Author").setValue("first", forKey: "name")
        try context.save()
        switch how {
        case "rename over":
            let copy = directory.file("Other-copy.sqlite")
            try FileManager.default.copyItem(at: other, to: copy)
            #expect(rename(copy.path, url.path) == 0)
        case "delete and copy":
            try FileManager.default.removeItem(at: url)
            try FileManager.default.copyItem(at: other, to: url)
        default:
            try FileManager.default.removeItem(at: url)
        }
        let replacement = try? Data(contentsOf: url)
        try context.insertNewObject(forEntityNamed: "Author").setValue("after", forKey: "name")
        #expect { try context.save() } throws: { error in
            guard let error = error as? SQLiteStoreError, error.code == .fileReplaced else { return false }
            return error.path == url.path && Self.text(error).contains(url.path)
        }
        let after = try? Data(contentsOf: url)
        #expect(after == replacement, "the file that took the path is untouched")
        #expect(context.hasChanges)
    }
}
