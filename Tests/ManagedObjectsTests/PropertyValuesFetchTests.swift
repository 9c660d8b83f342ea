import Foundation
import Testing
import TestSupport
import ManagedObjects
import Predicates

/// `includesPropertyValues = false` on the in-memory store, the atomic file store and a user's
/// store (one answering with IDs and versions, one answering with rows regardless): the shared
/// bodies of TestSupport/PropertyValuesFetch.
@Suite struct PropertyValuesFetchTests {
    /// The store kinds of this layer; each factory gives one store instance to every coordinator.
    static func factories() -> [TestStoreFactory] {
        let memory = InMemoryStore()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("PropertyValues-\(UUID().uuidString).store")
        let file = AtomicFileStore(url: url)
        let keyed = KeyedTestStore(seed: "property-values-\(UUID().uuidString)")
        let rows = KeyedTestStore(seed: "property-values-rows-\(UUID().uuidString)", answersWithRows: true)
        return [TestStoreFactory("in-memory") { memory }, TestStoreFactory("file") { file },
                TestStoreFactory("user store, IDs") { keyed }, TestStoreFactory("user store, rows") { rows }]
    }

    static func removeFiles(_ factories: [TestStoreFactory]) {
        for factory in factories {
            if let store = try? factory.open() as? AtomicFileStore { try? FileManager.default.removeItem(at: store.url) }
        }
    }

    @Test func objectsAreFaultsUntilRead() throws {
        let factories = Self.factories()
        defer { Self.removeFiles(factories) }
        for factory in factories { try PropertyValuesFetch.objectsAreFaultsUntilRead(factory) }
    }

    @Test func deletedFaultsSave() throws {
        let factories = Self.factories()
        defer { Self.removeFiles(factories) }
        for factory in factories { try PropertyValuesFetch.deletedFaultsSave(factory) }
    }

    @Test func changedRowIsAConflict() throws {
        let factories = Self.factories()
        defer { Self.removeFiles(factories) }
        for factory in factories { try PropertyValuesFetch.changedRowIsAConflict(factory) }
    }

    /// The in-memory evaluation a user's store calls answers a fetch of faults with the
    /// matching IDs and their versions, and a fetch for values with rows.
    @Test func evaluationAnswersAFetchOfFaultsWithIDsAndVersions() throws {
        let model = try PropertyValuesFetch.model()
        let ids = (1...3).map { ManagedObjectID(entityName: "Entry", storeIdentifier: "S", primaryKey: Int64($0)) }
        let rows = ids.enumerated().map { StoreRow(objectID: $1, version: Int64($0 + 1), attributes: ["rank": .integer(Int64($0))]) }
        var request = StoreFetchRequest(entityNames: ["Entry"], predicate: try KeyValuePredicate(format: "rank > 0"))
        #expect(request.includesPropertyValues && EntityFetchRequest(entityName: "Entry").includesPropertyValues, "on by default")
        #expect(try request.evaluate(over: rows, in: model).rows.count == 2)
        request.includesPropertyValues = false
        let answer = try request.evaluate(over: rows, in: model)
        #expect(answer.rows.isEmpty && answer.objectIDs == Array(ids[1...]) && answer.objectVersions == [2, 3])
    }

    /// A dictionary fetch reads values whatever the request says: its objects are filled from
    /// the store's rows, no fault loaded one by one.
    @Test func aDictionaryFetchReadsTheValues() throws {
        // A store answering with rows; a context that never loads a fault from the row cache.
        let store = KeyedTestStore(seed: "dictionaries-\(UUID().uuidString)", answersWithRows: true)
        let context = ManagedObjectContext(coordinator: try PropertyValuesFetch.stocked(TestStoreFactory("user store") { store }))
        context.stalenessInterval = 0
        store.resetCalls()
        var request = PropertyValuesFetch.faultsRequest()
        request.resultType = .dictionaries
        request.propertiesToFetch = ["name"]
        let names = try context.fetchDictionaries(request).compactMap { $0["name"] as? String }
        #expect(names == ["e0", "e1", "e2", "e3", "e4"])
        #expect(store.calls.fetches == 1 && store.calls.rows.isEmpty, "\(store.calls)")
    }

    /// A store answering with versions that do not match its IDs is refused, naming the store.
    @Test func versionsNotMatchingTheIDsAreRefused() throws {
        let context = ManagedObjectContext(coordinator: try PropertyValuesFetch.stocked(TestStoreFactory("memory") { InMemoryStore() }))
        let id = try #require(context.fetch(EntityFetchRequest(entityName: "Entry")).first?.objectID)
        var answer = StoreFetchResult(rows: [], objectIDs: [id], appliedPredicate: true, appliedOrderAndLimits: true)
        answer.objectVersions = [1, 2]
        let store = try #require(context.coordinator?.stores.first)
        #expect(throws: ManagedObjectContextError.self) { try context.checkFetchAnswer(answer, of: store, names: ["Entry"]) }
    }
}
