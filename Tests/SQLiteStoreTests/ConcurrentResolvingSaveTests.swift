import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// Private-queue contexts on one coordinator (SQLite) save over each other's rows at once, with a
/// resolving merge policy (trial12 N10): every save resolves its conflicts and writes, as the
/// conflicts made one after another do; none throws. The `error` policy still reports them.
@Suite struct ConcurrentResolvingSaveTests {
    static let writers = 6
    static let rounds = 12
    static let shared = 20

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", properties: [
                .attribute("title", .string),
                .attribute("writer", .integer64),
                .attribute("round", .integer64),
            ]),
        ])
    }

    /// A coordinator on a new store with the shared items.
    static func stack(_ folder: TemporaryDirectory) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(model: try model())
        try coordinator.addStore(SQLitePersistentStore(url: folder.file("items.sqlite")))
        let context = ManagedObjectContext(coordinator: coordinator)
        for index in 0..<shared {
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue("shared-\(index)", forKey: "title")
        }
        try context.save()
        return coordinator
    }

    /// Each writer, each round: sets every item it sees (the shared ones and the other writers'
    /// new ones: update/update and update/delete conflicts), deletes the item it inserted the
    /// round before (which others may have changed) and inserts one. Returns the saves that threw.
    static func race(_ coordinator: PersistentStoreCoordinator, policy: MergePolicy.Kind) async throws -> [String] {
        try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
                    return try await context.perform { context in
                        context.mergePolicy = MergePolicy(kind: policy)
                        var failures: [String] = []
                        var mine: ManagedObject?
                        for round in 0..<rounds {
                            for item in try context.fetch(EntityFetchRequest(entityName: "Item")) {
                                try item.setValue(Int64(writer), forKey: "writer")
                                try item.setValue(Int64(round), forKey: "round")
                            }
                            if let mine { context.delete(mine) }
                            let new = try context.insertNewObject(forEntityNamed: "Item")
                            try new.setValue("new-\(writer)-\(round)", forKey: "title")
                            mine = new
                            do {
                                try context.save()
                            } catch {
                                failures.append("writer \(writer) round \(round): \(error)")
                                context.rollback()
                            }
                        }
                        return failures
                    }
                }
            }
            var failures: [String] = []
            for try await found in group { failures += found }
            return failures
        }
    }

    @Test(arguments: [MergePolicy.Kind.mergeByPropertyObjectTrump, .overwrite])
    func concurrentSavesWithAResolvingPolicyNeverThrow(policy: MergePolicy.Kind) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let coordinator = try Self.stack(folder)
        let failures = try await Self.race(coordinator, policy: policy)
        #expect(failures.isEmpty, "\(failures.count) saves threw; first: \(failures.first ?? "")")
        // The shared items, and each writer's last insert (its earlier ones it deleted).
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let items = try fresh.fetch(EntityFetchRequest(entityName: "Item"))
        let titles = Set(items.compactMap { (try? $0.value(forKey: "title")) as? String })
        let expected = Set((0..<Self.shared).map { "shared-\($0)" } + (0..<Self.writers).map { "new-\($0)-\(Self.rounds - 1)" })
        #expect(titles == expected)
        #expect(items.count == expected.count)
        // Every shared item was last written by some writer's last round (each round sets all).
        for item in items where ((try? item.value(forKey: "title")) as? String)?.hasPrefix("shared-") == true {
            #expect(try item.value(forKey: "round") as? Int64 == Int64(Self.rounds - 1))
        }
    }

    /// The store-side policies resolve too (their final state depends on the order of the
    /// saves: a delete of a row another writer changed comes back, a change meeting a newer row
    /// is dropped); only that nothing throws is checked.
    @Test(arguments: [MergePolicy.Kind.mergeByPropertyStoreTrump, .rollback])
    func concurrentSavesWithAStoreSidePolicyNeverThrow(policy: MergePolicy.Kind) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let failures = try await Self.race(try Self.stack(folder), policy: policy)
        #expect(failures.isEmpty, "\(failures.count) saves threw; first: \(failures.first ?? "")")
    }

    @Test func theErrorPolicyStillReportsTheConflict() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let coordinator = try Self.stack(folder)
        let first = ManagedObjectContext(coordinator: coordinator)
        let second = ManagedObjectContext(coordinator: coordinator)
        let mine = try #require(try first.fetch(EntityFetchRequest(entityName: "Item")).first)
        let theirs = try second.existingObject(with: mine.objectID)
        try theirs.setValue("theirs", forKey: "title")
        try second.save()
        try mine.setValue(Int64(1), forKey: "round")
        #expect(throws: ManagedObjectMergeError.self) { try first.save() }
        first.mergePolicy = .mergeByPropertyObjectTrump
        try first.save()
        let stored = try ManagedObjectContext(coordinator: coordinator).existingObject(with: mine.objectID)
        #expect(try stored.value(forKey: "title") as? String == "theirs")
        #expect(try stored.value(forKey: "round") as? Int64 == 1)
    }
}
