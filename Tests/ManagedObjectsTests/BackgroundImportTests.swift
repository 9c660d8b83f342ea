// The worked example of Docs/ManagedObjects.md "Queues" (the same code), compiled in Swift 6
// mode: a background import hands object IDs to the main actor without `@unchecked` or
// `assumeIsolated`.
import Foundation
import Testing
import ManagedObjects
import TestSupport

// MARK: The guide's code

@MainActor
func standNames(_ ids: [ManagedObjectID], in viewContext: ManagedObjectContext) throws -> [String] {
    try ids.map { try viewContext.object(with: $0).value(forKey: "name") as? String ?? "" }
}

@MainActor
func importStands(_ names: [String], coordinator: PersistentStoreCoordinator) async throws -> [String] {
    let viewContext = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: coordinator)
    let background = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    let ids = try await background.perform { context in
        var stands: [ManagedObject] = []
        for name in names {
            let stand = try context.insertNewObject(forEntityNamed: "Stand")
            try stand.setValue(name, forKey: "name")
            stands.append(stand)
        }
        try context.save()
        return stands.map(\.objectID)   // permanent IDs: Sendable values
    }
    return try standNames(ids, in: viewContext)
}

// MARK: Tests

@Suite struct BackgroundImportTests {
    @MainActor
    @Test func aBackgroundImportHandsItsIDsToTheMainQueueContext() async throws {
        let coordinator = PersistentStoreCoordinator(model: try FruitStandModel.make())
        try coordinator.addStore(InMemoryStore())
        let names = ["Corner", "Harbour", "Market"]
        #expect(try await importStands(names, coordinator: coordinator) == names)
        // The stands reached the store (another context sees them).
        let other = ManagedObjectContext(coordinator: coordinator)
        #expect(try other.count(for: EntityFetchRequest(entityName: "Stand")) == 3)
    }

    @Test func aBackgroundImportRunsFromANonisolatedFunctionToo() async throws {
        let coordinator = PersistentStoreCoordinator(model: try FruitStandModel.make())
        try coordinator.addStore(InMemoryStore())
        let background = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let id = try await background.perform { context in
            let stand = try context.insertNewObject(forEntityNamed: "Stand")
            try stand.setValue("Corner", forKey: "name")
            try context.save()
            return stand.objectID
        }
        #expect(try await standNames([id], in: ManagedObjectContext(concurrencyType: .mainQueue, coordinator: coordinator)) == ["Corner"])
    }
}
