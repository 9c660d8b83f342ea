// The worked example of Docs/ManagedObjects.md "Queues", compiled in Swift 6 mode: a background
// import hands object IDs to the main actor without `@unchecked` or `assumeIsolated`.
import Foundation
import Testing
import ManagedObjects
import TestSupport

/// Shows imported stands on the main actor, from their IDs.
@MainActor
func standNames(_ ids: [ManagedObjectID], in viewContext: ManagedObjectContext) throws -> [String] {
    try ids.map { try viewContext.object(with: $0).value(forKey: "name") as? String ?? "" }
}

@Suite struct BackgroundImportTests {
    @MainActor
    @Test func aBackgroundImportHandsItsIDsToTheMainQueueContext() async throws {
        let coordinator = PersistentStoreCoordinator(model: try FruitStandModel.make())
        try coordinator.addStore(InMemoryStore())
        let viewContext = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: coordinator)
        let background = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)

        let names = ["Corner", "Harbour", "Market"]
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

        #expect(ids.allSatisfy { !$0.isTemporaryID })
        #expect(try standNames(ids, in: viewContext) == names)
    }
}
