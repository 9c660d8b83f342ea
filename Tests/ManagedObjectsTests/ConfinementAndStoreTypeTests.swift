import Foundation
import Testing
@testable import ManagedObjects

@Suite struct ConfinementAndStoreTypeTests {
    @Test func unknownStoreTypesAreRefusedAndCustomTypesRegister() throws {
        let coordinator = PersistentStoreCoordinator(model: try ContextSaveFetchTests.fruitModel())
        #expect(throws: ManagedObjectContextError.unknownStoreType("Nowhere")) { try coordinator.addStore(with: StoreDescription(type: "Nowhere")) }
        PersistentStoreCoordinator.registerStoreType("FixedMemory") { _ in InMemoryStore(identifier: "11111111-2222-3333-4444-555555555555") }
        let store = try coordinator.addStore(with: StoreDescription(type: "FixedMemory"))
        #expect(store.identifier == "11111111-2222-3333-4444-555555555555")
        #expect(PersistentStoreCoordinator.registeredStoreTypes.contains("FixedMemory"))
    }

    @Test func twoThreadsUsingOneContextAtOnceStopTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let context = ManagedObjectContext(model: try! ContextSaveFetchTests.fruitModel())
            nonisolated(unsafe) let shared = context
            let thread = Thread { while true { _ = try? shared.fetch(EntityFetchRequest(entityName: "Stand")) } }
            thread.start()
            while true { _ = try? context.insertNewObject(forEntityNamed: "Stand") }
        }
    }

    @Test func aContextMayMoveBetweenThreadsOneAtATime() async throws {
        // As an actor's (or the main actor's) work resumes on another thread after an await.
        let context = ManagedObjectContext(model: try ContextSaveFetchTests.fruitModel())
        nonisolated(unsafe) let shared = context
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = try? shared.insertNewObject(forEntityNamed: "Stand")
            done.signal()
        }
        thread.start()
        done.wait()
        try context.insertNewObject(forEntityNamed: "Stand")
        #expect(context.insertedObjects.count == 2)
    }
}
