import Dispatch
import Foundation
import Testing
import ManagedObjects
import Synchronization
@testable import PostgreSQLStore

/// Resolving merge policies against other processes: while a save's policy resolves its
/// conflicts and the context writes again, other users' saves of the store wait
/// (`PostgreSQLPersistentStore.withOtherSavesExcluded`), so the resolving save never loses the
/// race.
@Suite struct ResolvingSaveTests {
    /// A trumping policy that lets another process write the conflicting row each time it
    /// resolves, and waits until that write is done or waits itself.
    final class Meddling: MergePolicy {
        let meddle: () throws -> Void
        init(_ meddle: @escaping () throws -> Void) {
            self.meddle = meddle
            super.init(kind: .mergeByPropertyObjectTrump)
        }
        override func resolve(optimisticLockingConflicts conflicts: [MergeConflict], in context: ManagedObjectContext) throws {
            try meddle()
            try super.resolve(optimisticLockingConflicts: conflicts, in: context)
        }
    }

    /// A context of `database` with one saved item (`large` 0): the row the tests' saves meet
    /// conflicts on.
    static func savedItem(in database: TestDatabase) throws -> (ManagedObjectModel, ManagedObjectContext, ManagedObject) {
        let model = try StoreTests.library()
        let context = try StoreTests.context(database, model: model)
        let item = try context.insertNewObject(forEntityNamed: "Item")
        try item.setValue(Int64(0), forKey: "large")
        try context.save()
        return (model, context, item)
    }

    /// What the other process's save did.
    final class Outcome: Sendable {
        let done = Atomic<Bool>(false)
        let result = Mutex<String?>(nil)
        var isDone: Bool { done.load(ordering: .sequentiallyConsistent) }
    }

    @Test func anotherProcessWritingDuringTheResolutionWaitsForTheWrite() throws {
        try TestDatabase.run { database in
            let (model, a, item) = try Self.savedItem(in: database)
            let id = item.objectID
            let b = try StoreTests.context(database, model: model)
            let mine = try #require(try b.fetch(EntityFetchRequest(entityName: "Item")).first)
            // The other process: a store of its own, recognisable among the server's sessions.
            let name = "og-meddler-" + UUID().uuidString.prefix(8)
            let rival = PostgreSQLPersistentStore(url: database.url, schema: database.schema,
                                                  options: PostgreSQLStoreOptions(parameters: ["application_name": name]))
            try rival.load(for: model)
            let watcher = try database.connection()
            var outcomes: [Outcome] = []
            b.mergePolicy = Meddling {
                var row = try #require(try rival.row(for: id))
                row.attributes["large"] = .integer(Int64(100 + outcomes.count))
                let outcome = Outcome()
                outcomes.append(outcome)
                let writer = Thread { [row] in
                    do {
                        _ = try rival.save(StoreSaveChanges(updated: [row]))
                        outcome.result.withLock { $0 = "saved" }
                    } catch {
                        outcome.result.withLock { $0 = "\(error)" }
                    }
                    outcome.done.store(true, ordering: .sequentiallyConsistent)
                }
                writer.start()
                // Until the rival's save is done, or waits for the resolving save's lock.
                for _ in 0..<1_000 where !outcome.isDone {
                    let waiting = try watcher.execute(
                        "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.application_name = $1::text",
                        [.text(name)])
                    if waiting.rows.first?.first == "1" { return }
                    Thread.sleep(forTimeInterval: 0.01)
                }
            }
            try item.setValue(Int64(1), forKey: "large")
            try a.save()                                   // b's save meets a conflict
            try mine.setValue(Int64(2), forKey: "large")
            try b.save()                                   // and wins, though the rival writes meanwhile
            #expect(outcomes.count == 1, "resolved once: nothing changed the row between the resolution and the write")
            // The rival's save went after b's write, with the version it had read: a conflict.
            let outcome = try #require(outcomes.first)
            for _ in 0..<1_000 where !outcome.isDone { Thread.sleep(forTimeInterval: 0.01) }
            #expect(outcome.isDone)
            #expect(outcome.result.withLock { $0 } != "saved")
            let stored = try #require(try rival.row(for: id))
            #expect(stored.attributes["large"] == .integer(2))
            #expect(stored.version == 3)
        }
    }

    @Test func aPolicySavingAnotherContextOfTheCoordinatorDuringTheResolutionDoesNotWaitForItself() throws {
        try TestDatabase.run { database in
            let (model, a, item) = try Self.savedItem(in: database)
            // A second lock of the same store would wait for the first: the timeout ends that wait.
            let coordinator = PersistentStoreCoordinator(model: model)
            try coordinator.addStore(PostgreSQLPersistentStore(url: database.url, schema: database.schema,
                                                               options: PostgreSQLStoreOptions(statementTimeout: .seconds(2))))
            let b = ManagedObjectContext(coordinator: coordinator)
            let nested = ManagedObjectContext(coordinator: coordinator)
            nested.mergePolicy = .overwrite
            let mine = try #require(try b.fetch(EntityFetchRequest(entityName: "Item")).first)
            let theirs = try #require(try nested.fetch(EntityFetchRequest(entityName: "Item")).first)
            var nestedSaves = 0
            b.mergePolicy = Meddling {
                guard nestedSaves == 0 else { return }
                nestedSaves += 1
                try theirs.setValue(Int64(50), forKey: "large")
                try nested.save()                          // meets a's change too, inside b's resolution
            }
            try item.setValue(Int64(1), forKey: "large")
            try a.save()
            try mine.setValue(Int64(2), forKey: "large")
            try b.save()
            #expect(nestedSaves == 1)
            let check = try StoreTests.context(database, model: model)
            let saved = try #require(try check.fetch(EntityFetchRequest(entityName: "Item")).first)
            #expect(saved.stored("large") as? Int64 == 2)
        }
    }

    @Test func twoProcessesWithTrumpingPoliciesNeverThrow() throws {
        try TestDatabase.run { database in
            let model = try StoreTests.library()
            let setup = try StoreTests.context(database, model: model)
            for index in 0..<10 {
                try setup.insertNewObject(forEntityNamed: "Item").setValue(Int64(index), forKey: "large")
            }
            try setup.save()
            let failures = Mutex<[String]>([])
            let saves = Atomic<Int>(0)
            // Two coordinators, each with its own store (its own connections: two processes).
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                do {
                    let context = try StoreTests.context(database, model: model)
                    context.mergePolicy = worker == 0 ? .mergeByPropertyObjectTrump : .overwrite
                    context.stalenessInterval = 0
                    for round in 0..<30 {
                        // Fresh values each round: a conflict needs the other's save in between.
                        context.refreshAllObjects()
                        let items = try context.fetch(EntityFetchRequest(entityName: "Item"))
                        for item in items { try item.setValue(Int64(1_000 * worker + round), forKey: "large") }
                        do {
                            try context.save()
                            saves.add(1, ordering: .relaxed)
                        } catch {
                            failures.withLock { $0.append("worker \(worker) round \(round): \("\(error)".prefix(120))") }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("worker \(worker): \(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(saves.load(ordering: .relaxed) == 60)
            let check = try StoreTests.context(database, model: model)
            let values = try check.fetch(EntityFetchRequest(entityName: "Item")).map { $0.stored("large") as? Int64 }
            #expect(values.count == 10)
            #expect(Set(values).count == 1, "every row holds the last save's value: \(values)")
        }
    }
}
