import Foundation
import Synchronization
import Testing
@testable import ManagedObjects
import TestSupport

/// A stocked coordinator (see ``FruitStandModel/stock(_:)``) for queue tests.
func stockedCoordinator() throws -> PersistentStoreCoordinator {
    let coordinator = PersistentStoreCoordinator(model: try FruitStandModel.make())
    try coordinator.addStore(InMemoryStore())
    try FruitStandModel.stock(ManagedObjectContext(coordinator: coordinator))
    return coordinator
}

/// The fire-and-forget `perform(_:)` (in async code, `perform { }` is the awaited form).
func enqueue(on context: ManagedObjectContext, _ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
    context.perform(block)
}

struct QueueTestError: Error, Equatable { let code: Int }

@Suite struct ContextQueueTests {
    @Test func aPrivateQueueContextRunsAwaitedBlocksAndReturnsTheirValue() async throws {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try stockedCoordinator())
        #expect(context.concurrencyType == .privateQueue)
        let count = try await context.perform { context in
            try context.count(for: EntityFetchRequest(entityName: "Fruit"))
        }
        #expect(count == 5)
    }

    @Test func anAwaitedPerformPassesTheBlocksErrorOn() async throws {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try stockedCoordinator())
        await #expect(throws: QueueTestError(code: 7)) {
            try await context.perform { (_) throws(QueueTestError) -> Int in throw QueueTestError(code: 7) }
        }
        // A block that cannot throw needs no `try` (typed throws: Never).
        let name: String? = await context.perform { context in context.name }
        #expect(name == nil)
    }

    @Test func performAndWaitReturnsRethrowsAndIsReentrant() throws {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try stockedCoordinator())
        let inner = try context.performAndWait {
            let stands = try context.fetch(EntityFetchRequest(entityName: "Stand"))
            // Re-entrant: a nested performAndWait on the same context runs inline (a nested
            // `queue.sync` would deadlock).
            return try context.performAndWait { try stands[0].value(forKey: "name") as? String }
        }
        #expect(inner == "Corner")
        #expect(throws: QueueTestError(code: 3)) {
            try context.performAndWait { () throws(QueueTestError) -> Void in throw QueueTestError(code: 3) }
        }
    }

    @Test func aFireAndForgetPerformRunsLaterOnTheQueueAsOneUserEvent() async throws {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try stockedCoordinator())
        let events = Mutex(0)
        let token = context.performAndWait {
            context.onObjectsDidChange { _ in events.withLock { $0 += 1 } }
        }
        enqueue(on: context) { context in
            let stand = try? context.fetch(EntityFetchRequest(entityName: "Stand")).first
            try? stand?.setValue("Market", forKey: "name")
        }
        // Blocks run in order: this one runs after the one above.
        let name = try await context.perform(schedule: .enqueued) { context in
            try context.fetch(EntityFetchRequest(entityName: "Stand")).first?.value(forKey: "name") as? String
        }
        #expect(name == "Market")
        #expect(events.withLock { $0 } == 1)   // processPendingChanges ended the first block's event
        withExtendedLifetime(token) {}
    }

    @Test func blocksFromManyTasksRunOneAtATime() async throws {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try stockedCoordinator())
        let id = try await context.perform { context in
            try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first).objectID
        }
        // Swift refuses to share a context between tasks; the test does it on purpose, as a
        // context's blocks may come from any thread.
        let shared = ContextHop(context: context)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await shared.context.perform { context in
                        let stand = try context.object(with: id)
                        let name = try stand.value(forKey: "name") as? String ?? ""
                        try stand.setValue(name + "x", forKey: "name")
                    }
                }
            }
            for _ in 0..<50 { enqueue(on: shared.context) { _ in } }
            try await group.waitForAll()
        }
        let name = try await context.perform { context in try context.object(with: id).value(forKey: "name") as? String }
        #expect(name == "Corner" + String(repeating: "x", count: 50))
    }

    @Test func aPrivateQueueContextIsUsableOnlyInsideItsBlocks() async throws {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try stockedCoordinator())
        context.name = "importer"
        #expect(!context.isUsableOnCurrentThread)
        #expect(await context.perform { context in context.isUsableOnCurrentThread })
        #expect(context.performAndWait { context.isUsableOnCurrentThread })
        let message = context.confinementViolationMessage("fetch(_:)")
        #expect(message.contains("'importer'"))
        #expect(message.contains("fetch(_:)"))
        #expect(message.contains(context.privateQueue!.label))
        #expect(message.contains("perform"))
    }

    @Test func usingAPrivateQueueContextOutsideItsBlocksStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try! stockedCoordinator())
            _ = try? context.fetch(EntityFetchRequest(entityName: "Stand"))
        }
    }

    @Test func changingAnObjectOfAPrivateQueueContextOutsideItsBlocksStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try! stockedCoordinator())
            let stand = context.performAndWait { try! context.fetch(EntityFetchRequest(entityName: "Stand"))[0] }
            try? stand.setValue("Elsewhere", forKey: "name")
        }
    }

    @Test func theChecksCanBeTurnedOff() async {
        await #expect(processExitsWith: .success) {
            ManagedObjectContext.checksThreadConfinement = false
            let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try! stockedCoordinator())
            _ = try? context.fetch(EntityFetchRequest(entityName: "Stand"))
        }
    }

    @Test func aContextWithoutAQueueRunsBlocksAtOnce() async throws {
        let context = ManagedObjectContext(coordinator: try stockedCoordinator())
        #expect(context.concurrencyType == .confinement)
        let ran = Mutex(false)
        enqueue(on: context) { _ in ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 })
        #expect(try await context.perform { try $0.count(for: EntityFetchRequest(entityName: "Crate")) } == 2)
        #expect(context.isUsableOnCurrentThread)
    }

    @MainActor
    @Test func aMainQueueContextIsUsedDirectlyOnTheMainActor() async throws {
        let context = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: try stockedCoordinator())
        context.name = "view"
        #expect(context.isUsableOnCurrentThread)
        #expect(try context.count(for: EntityFetchRequest(entityName: "Stand")) == 1)
        // Off the main thread it is not usable, except inside its blocks (which hop to main).
        let fromElsewhere = await Task.detached { () -> Bool in
            let other = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try! stockedCoordinator())
            return other.performAndWait { MainQueueCheck.isRunningOnMainQueue() }
        }.value
        #expect(!fromElsewhere)
        #expect(context.confinementViolationMessage("save()").contains("the main queue"))
        #expect(try await context.perform(schedule: .enqueued) { context in
            (MainQueueCheck.isRunningOnMainQueue(), try context.count(for: EntityFetchRequest(entityName: "Crate")))
        } == (true, 2))
    }

    @Test func aMainQueueContextIsNotUsableOffTheMainThread() async throws {
        let view = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: try stockedCoordinator())
        let probe = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try stockedCoordinator())
        let hop = ContextHop(context: view)
        // From a private queue's thread: not the main thread, not inside the view's blocks.
        let usable = await probe.perform { _ in hop.context.isUsableOnCurrentThread }
        #expect(!usable)
        // Its blocks run on the main queue, from any thread.
        let onMain = await view.perform { _ in MainQueueCheck.isRunningOnMainQueue() }
        #expect(onMain)
    }

    @Test func performAndWaitOnAMainQueueContextFromElsewhereRunsOnTheMainQueue() async throws {
        let view = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: try stockedCoordinator())
        #expect(!MainQueueCheck.isRunningOnMainQueue())
        let (onMain, count) = try view.performAndWait {
            (MainQueueCheck.isRunningOnMainQueue(), try view.count(for: EntityFetchRequest(entityName: "Fruit")))
        }
        #expect(onMain && count == 5)
    }

    @Test func automaticMergesBringAnotherContextsSaveIntoAContextWithTheFlag() async throws {
        let coordinator = try stockedCoordinator()
        let view = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let quiet = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let request = EntityFetchRequest(entityName: "Stand")
        view.performAndWait { view.automaticallyMergesChangesFromParent = true }
        _ = try await view.perform { try $0.fetch(request).count }   // registered, with the old name
        _ = try await quiet.perform { try $0.fetch(request).count }
        try await writer.perform { context in
            try context.fetch(request)[0].setValue("Harbour", forKey: "name")
            try context.save()
        }
        // The merge was enqueued on the view's queue during the save; this block runs after it.
        let merged = try await view.perform(schedule: .enqueued) { try $0.fetch(request)[0].value(forKey: "name") as? String }
        let unmerged = try await quiet.perform(schedule: .enqueued) { try $0.fetch(request)[0].value(forKey: "name") as? String }
        #expect(merged == "Harbour")
        #expect(unmerged == "Corner")
    }
}
