// The container's queues: a main-queue view context, background contexts, background tasks, and
// the worked example of Docs/ManagedObjects.md "Queues" on SQLite (compiled in Swift 6 mode:
// no `@unchecked`, no `assumeIsolated`).
import Foundation
import Synchronization
import Testing
import ManagedObjects
import SQLiteStore
import TestSupport

/// The main actor's side of the import: objects of the view context from their IDs.
@MainActor
func importedNames(_ ids: [ManagedObjectID], in container: PersistentContainer) throws -> [String] {
    try ids.map { try container.viewContext.object(with: $0).value(forKey: "name") as? String ?? "" }
}

@Suite @MainActor struct ContainerQueueTests {
    func container(in directory: TemporaryDirectory) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Stands", model: try FruitStandModel.make())
        container.storeDescriptions = [.sqlite(at: directory.file("Stands.sqlite"))]
        try container.loadPersistentStores()
        return container
    }

    @Test func theViewContextIsOnTheMainQueueAndBackgroundContextsHaveTheirOwn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let container = try container(in: directory)
        #expect(container.viewContext.concurrencyType == .mainQueue)
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        #expect(first.concurrencyType == .privateQueue)
        #expect(first !== second)
        #expect(first.coordinator === container.coordinator)
    }

    @Test func aBackgroundTaskImportsAndTheMainActorShowsTheObjects() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let container = try container(in: directory)
        let names = ["Corner", "Harbour", "Market"]
        let ids = try await container.performBackgroundTask { context in
            var stands: [ManagedObject] = []
            for name in names {
                let stand = try context.insertNewObject(forEntityNamed: "Stand")
                try stand.setValue(name, forKey: "name")
                stands.append(stand)
            }
            try context.save()
            return stands.map(\.objectID)
        }
        #expect(try importedNames(ids, in: container) == names)
    }

    @Test func aBackgroundTaskPassesItsErrorOn() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let container = try container(in: directory)
        await #expect(throws: ManagedObjectValidationError.self) {
            try await container.performBackgroundTask { context in
                try context.insertNewObject(forEntityNamed: "Stand")   // no name: a required attribute
                try context.save()
            }
        }
    }

    @Test func theFireAndForgetBackgroundTaskRunsOnAPrivateQueue() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let container = try container(in: directory)
        let saved = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            startImport(in: container) { count in continuation.resume(returning: count) }
        }
        #expect(saved == 1)
        #expect(try container.viewContext.count(for: EntityFetchRequest(entityName: "Stand")) == 1)
    }

    /// The callback form of `performBackgroundTask`.
    private func startImport(in container: PersistentContainer, done: @escaping @Sendable (Int) -> Void) {
        container.performBackgroundTask { context in
            let stand = try? context.insertNewObject(forEntityNamed: "Stand")
            try? stand?.setValue("Corner", forKey: "name")
            try? context.save()
            done(context.concurrencyType == .privateQueue ? 1 : 0)
        }
    }

    @Test func theViewContextMergesBackgroundSavesAutomatically() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let container = try container(in: directory)
        container.viewContext.automaticallyMergesChangesFromParent = true
        let stand = try container.viewContext.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        try container.viewContext.save()
        let id = stand.objectID
        try await container.performBackgroundTask { context in
            try context.object(with: id).setValue("Harbour", forKey: "name")
            try context.save()
        }
        // The merge was enqueued on the main queue during the background save.
        await container.viewContext.perform(schedule: .enqueued) { _ in }
        #expect(try stand.value(forKey: "name") as? String == "Harbour")
    }
}
