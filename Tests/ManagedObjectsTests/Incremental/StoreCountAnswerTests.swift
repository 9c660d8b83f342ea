import Foundation
import Testing
@testable import ManagedObjects
import TestSupport

/// A store that answers every count request with `count` and holds no rows.
private final class CountingStore: PersistentStore {
    let identifier: String
    let storeType = "Counting"
    let count: Int
    init(identifier: String, count: Int) {
        self.identifier = identifier
        self.count = count
    }
    var metadata: [String: any Sendable] { [StoreMetadata.storeTypeKey: storeType, StoreMetadata.storeUUIDKey: identifier] }
    func load(for model: ManagedObjectModel) throws {}
    func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        request.resultType == .count ? StoreFetchResult(count: count) : StoreFetchResult(rows: [], appliedPredicate: false, appliedOrderAndLimits: false)
    }
    func row(for id: ManagedObjectID) throws -> StoreRow? { nil }
    func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        entityNames.enumerated().map { ManagedObjectID(entityName: $1, storeIdentifier: identifier, primaryKey: Int64(1 + $0)) }
    }
    func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] { [:] }
}

/// A custom store's count answers that no store could give (session 14): more than the limit
/// it applied, or more than a count can hold with the other stores' counts.
@Suite struct StoreCountAnswerTests {
    static func context(counts: [Int]) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: try FruitStandModel.make())
        for (index, count) in counts.enumerated() {
            try coordinator.addStore(CountingStore(identifier: "C0A7F00D-0000-4000-8000-00000000000\(index)", count: count))
        }
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// The reason of the `invalidStoreAnswer` that `body` throws, or what happened instead.
    static func refusal(_ body: () throws -> Int) -> String {
        do {
            return "answered \(try body())"
        } catch ManagedObjectContextError.invalidStoreAnswer(_, let reason) {
            return reason
        } catch {
            return "threw \(error)"
        }
    }

    static func stands(limit: Int = 0) -> EntityFetchRequest {
        var request = EntityFetchRequest(entityName: "Stand")
        request.fetchLimit = limit
        return request
    }

    @Test func aCountWithinTheLimitIsTheAnswer() throws {
        #expect(try Self.context(counts: [5]).count(for: Self.stands(limit: 5)) == 5)
        #expect(try Self.context(counts: [40]).count(for: Self.stands()) == 40)
    }

    @Test func aCountPastTheLimitTheStoreAppliedIsRefused() throws {
        let context = try Self.context(counts: [40])
        let reason = Self.refusal { try context.count(for: Self.stands(limit: 5)) }
        #expect(reason.contains("limited to 5") && reason.contains("40"), "\(reason)")
    }

    @Test func countsThatAddUpPastIntMaxAreRefusedNotATrap() throws {
        // Two stores hold every entity: their counts are added.
        #expect(try Self.context(counts: [2, 3]).count(for: Self.stands()) == 5)
        let huge = try Self.context(counts: [Int.max, 1])
        let reason = Self.refusal { try huge.count(for: Self.stands()) }
        #expect(reason.contains("more than a count can hold"), "\(reason)")
        let negative = try Self.context(counts: [1, -1])
        #expect(Self.refusal { try negative.count(for: Self.stands()) }.contains("counted -1"))
    }
}
