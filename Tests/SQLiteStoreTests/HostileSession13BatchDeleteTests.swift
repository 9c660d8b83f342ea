import Foundation
import Testing
import ManagedObjects
import Predicates
import TestSupport
@testable import SQLiteStore

/// Trial 13 T7: objects fetched with a batch size whose rows another context deletes (and
/// saves) before their batch is read. On every store they are faults that cannot be fulfilled
/// (Apple: "could not fulfill a fault"); before, the in-memory store had filled them at the
/// fetch and they read the deleted rows' old values.
@Suite struct HostileSession13BatchDeleteTests {
    enum Kind: String, CaseIterable, Sendable { case memory, sqlite }
    enum Read: String, CaseIterable, Sendable { case fetch, fetchBatched }

    @Test(arguments: Kind.allCases, Read.allCases)
    func rowsDeletedBeforeTheirBatchIsReadCannotBeFulfilled(kind: Kind, read: Read) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let coordinator = PersistentStoreCoordinator(model: try SQLParityTable.model())
        switch kind {
        case .memory: try coordinator.addStore(InMemoryStore())
        case .sqlite: try coordinator.addStore(SQLitePersistentStore(url: directory.file("Batch.sqlite")))
        }
        let writer = ManagedObjectContext(coordinator: coordinator)
        try SQLParityTable.stock(writer)
        try writer.save()
        let reader = ManagedObjectContext(coordinator: coordinator)
        var request = EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "serial")])
        request.fetchBatchSize = 10
        let objects: [ManagedObject]
        let batched: BatchedFetchResults?
        switch read {
        case .fetch: (objects, batched) = (try reader.fetch(request), nil)
        case .fetchBatched: (objects, batched) = ([], try reader.fetchBatched(request))
        }
        func object(_ index: Int) -> ManagedObject { batched?[index] ?? objects[index] }
        let count = batched?.count ?? objects.count
        #expect(count == 60)
        #expect(object(0).stored("serial") as? Int64 == 0)
        // Rows 30..<50 go, in another context, before their batches are read.
        for fruit in try writer.fetch(request)[30..<50] { writer.delete(fruit) }
        try writer.save()
        for index in 0..<60 {
            let fruit = object(index)
            if (30..<50).contains(index) {
                #expect(throws: ManagedObjectContextError.self) { try fruit.fulfillFault() }
                #expect(fruit.isFault, "\(kind) \(read) \(index)")
            } else {
                #expect(fruit.stored("serial") as? Int64 == Int64(index), "\(kind) \(read) \(index)")
            }
        }
    }
}
