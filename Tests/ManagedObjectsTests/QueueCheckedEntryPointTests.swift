import Foundation
import Synchronization
import Testing
@testable import ManagedObjects
import TestSupport

/// The entry points that answered without the queue check before: a count and an object-ID
/// fetch that a store answers alone, and the typed change and save callbacks, whose handlers run
/// on the context's queue. Used off a private-queue context's queue, each stops the process, as
/// a fetch does; inside the context's blocks each works.
@Suite struct QueueCheckedEntryPointTests {
    @Test func countingOffAPrivateQueueStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try! stockedCoordinator())
            _ = try? context.count(for: EntityFetchRequest(entityName: "Stand"))
        }
    }

    @Test func fetchingObjectIDsOffAPrivateQueueStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try! stockedCoordinator())
            _ = try? context.fetchObjectIDs(EntityFetchRequest(entityName: "Stand"))
        }
    }

    @Test func registeringASaveHandlerOffAPrivateQueueStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try! stockedCoordinator())
            let token = context.onDidSave { _, _ in }
            withExtendedLifetime(token) {}
        }
    }

    @Test func registeringAChangeHandlerOffAPrivateQueueStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try! stockedCoordinator())
            let token = context.onObjectsDidChange { _ in }
            withExtendedLifetime(token) {}
        }
    }

    @Test func insideItsBlocksAPrivateQueueContextCountsAndCallsItsHandlers() async throws {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: try stockedCoordinator())
        let counts = try await context.perform { context in
            let stands = EntityFetchRequest(entityName: "Stand")
            return [try context.count(for: stands), try context.fetchObjectIDs(stands).count]
        }
        #expect(counts == [1, 1])
        let calls = try await context.perform { context in
            let saves = Mutex(0), changes = Mutex(0)
            let saveToken = context.onDidSave { _, _ in saves.withLock { $0 += 1 } }
            let changeToken = context.onObjectsDidChange { _ in changes.withLock { $0 += 1 } }
            let stand = try context.insertNewObject(forEntityNamed: "Stand")
            try stand.setValue("Second", forKey: "name")
            try context.save()
            withExtendedLifetime((saveToken, changeToken)) {}
            return [saves.withLock { $0 }, changes.withLock { $0 }]
        }
        #expect(calls[0] == 1)
        #expect(calls[1] >= 1)
    }
}

/// The messages of errors a porter meets first.
@Suite struct PorterFacingMessageTests {
    @Test func aTemporaryIDAfterTheSaveIsExplainedNotCalledDeleted() throws {
        let context = ManagedObjectContext(coordinator: try stockedCoordinator())
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Temporary", forKey: "name")
        let temporary = stand.objectID
        #expect(temporary.isTemporaryID)
        try context.save()
        let other = ManagedObjectContext(coordinator: context.coordinator!)
        let error = #expect(throws: ManagedObjectContextError.self) { try other.existingObject(with: temporary) }
        let message = error.map { "\($0.localizedDescription)" } ?? ""
        #expect(message.contains("temporary ID"))
        #expect(message.contains("permanent ID"))
        #expect(!message.contains("deleted elsewhere"))
        // A permanent ID of a deleted row keeps the store message.
        let permanent = stand.objectID
        context.delete(stand)
        try context.save()
        let gone = #expect(throws: ManagedObjectContextError.self) { try other.existingObject(with: permanent) }
        #expect(gone.map { "\($0.localizedDescription)" }?.contains("deleted elsewhere") == true)
    }
}
