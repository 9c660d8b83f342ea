import Foundation
import Testing
import ManagedObjects
import TestSupport

/// A store that answers every fetch with a row of an entity the model does not have.
private final class GhostRowStore: PersistentStore, @unchecked Sendable {
    // @unchecked: every property is a constant.
    let identifier = "8D0C2E4A-1B7F-4C1E-9A53-3F1D2B9C7E10"
    let storeType = "GhostRows"
    var metadata: [String: any Sendable] { [StoreMetadata.storeTypeKey: storeType, StoreMetadata.storeUUIDKey: identifier] }
    func load(for model: ManagedObjectModel) throws {}
    func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        let ghost = ManagedObjectID(entityName: "Ghost", storeIdentifier: identifier, referenceObject: .integer(7))
        return StoreFetchResult(rows: [StoreRow(objectID: ghost, version: 1, attributes: ["name": .string("boo")])],
                                appliedPredicate: false, appliedOrderAndLimits: false)
    }
    func row(for id: ManagedObjectID) throws -> StoreRow? { nil }
    func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] { [] }
    func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] { [:] }
}

@Suite struct GarbageStoreTests {
    /// A user's store that returns a row of an unknown entity makes the fetch throw, naming
    /// the entity, instead of stopping the process.
    @Test func aRowOfAnUnknownEntityIsAThrownError() throws {
        let coordinator = PersistentStoreCoordinator(model: try FruitStandModel.make())
        try coordinator.addStore(GhostRowStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let error = #expect(throws: (any Error).self) { try context.fetch(EntityFetchRequest(entityName: "Stand")) }
        #expect("\(error.map { String(describing: $0) } ?? "")".contains("Ghost"))
    }
}
