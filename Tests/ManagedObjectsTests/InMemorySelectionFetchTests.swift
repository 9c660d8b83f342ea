import Foundation
import Testing
import ManagedObjects
import Predicates

/// A context fetching from the in-memory store reads the store's selected rows in place
/// (`InMemoryStore.fetchSelection`) and copies only those that make or fill objects. These
/// tests hold that path to the general one: the store's own `fetch(_:)` answer, and a context
/// whose store is the same in-memory store behind a plain `PersistentStore` wrapper.
@Suite struct InMemorySelectionFetchTests {
    /// An in-memory store seen only through `PersistentStore`: the context fetches its rows
    /// through `fetch(_:)`, the general path.
    final class WrappedStore: PersistentStore {
        let inner = InMemoryStore()
        var identifier: String { inner.identifier }
        var storeType: String { "Wrapped" }
        var metadata: [String: any Sendable] { inner.metadata }
        func load(for model: ManagedObjectModel) throws { try inner.load(for: model) }
        func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult { try inner.fetch(request) }
        func row(for id: ManagedObjectID) throws -> StoreRow? { try inner.row(for: id) }
        func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] { try inner.newObjectIDs(for: entityNames) }
        func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] { try inner.save(changes) }
    }

    static let model: ManagedObjectModel = {
        let animal = EntityDescription(name: "Animal", properties: [.attribute("serial", .integer64), .attribute("name", .string),
                                                                   .toOne("friend", "Animal", inverse: nil)])
        let dog = EntityDescription(name: "Dog", parent: "Animal", properties: [.attribute("barks", .boolean)])
        return try! ManagedObjectModel(entities: [animal, dog])
    }()

    /// Six animals (serials 0–5, every other one a dog), saved; the row cache emptied.
    static func stack(_ store: any PersistentStore) throws -> (PersistentStoreCoordinator, [ManagedObjectID]) {
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        var objects: [ManagedObject] = []
        for serial in 0..<6 {
            let animal = try context.insertNewObject(forEntityNamed: serial % 2 == 0 ? "Dog" : "Animal")
            try animal.setValue(Int64(serial), forKey: "serial")
            try animal.setValue("animal \(serial)", forKey: "name")
            objects.append(animal)
        }
        try objects[1].setValue(objects[0], forKey: "friend")
        try context.save()
        let ids = objects.map(\.objectID)
        coordinator.rowCache.remove(ids)
        return (coordinator, ids)
    }

    @Test(arguments: [
        ("serial >= 2", [KeyValueSortDescriptor(key: "serial", ascending: false)], 0, 0),
        ("serial >= 1", [KeyValueSortDescriptor(key: "name")], 1, 2),
        ("name BEGINSWITH 'animal'", [], 0, 0),
        ("friend.serial == 0", [KeyValueSortDescriptor(key: "serial")], 0, 1),
        ("serial < 4", [KeyValueSortDescriptor(key: "friend.serial")], 0, 2),
    ] as [(String, [KeyValueSortDescriptor], Int, Int)])
    func theSelectionIsTheStoresAnswer(_ format: String, _ order: [KeyValueSortDescriptor], _ offset: Int, _ limit: Int) throws {
        let store = InMemoryStore()
        _ = try Self.stack(store)
        for names in [["Animal"], ["Animal", "Dog"]] {
            let request = StoreFetchRequest(entityNames: names, predicate: try KeyValuePredicate(format: format),
                                            sortDescriptors: order, fetchOffset: offset, fetchLimit: limit)
            let answer = try store.fetch(request)
            let selection = store.fetchSelection(request)
            // Without an applied order the entities' rows come in no particular order.
            if answer.appliedOrderAndLimits && !order.isEmpty {
                #expect(selection.rows() == answer.rows)
            } else {
                #expect(Set(selection.rows()) == Set(answer.rows))
            }
            #expect(selection.count == answer.rows.count)
            #expect(selection.appliedPredicate == answer.appliedPredicate)
            #expect(selection.appliedOrderAndLimits == answer.appliedOrderAndLimits)
        }
    }

    /// What a context sees fetching after another context saved a change to an object it has
    /// loaded, with a fault and unloaded objects in the answer.
    struct Observation: Equatable {
        var serials: [[Int64]] = []
        var sameInstances: [Bool] = []
        var faultFilled = false
        var cachedNames: [String?] = []
        var staleSerialKept: Int64?
    }

    static func observe(_ store: any PersistentStore) throws -> Observation {
        let (coordinator, ids) = try stack(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let loaded = try context.fetch(EntityFetchRequest(entityName: "Animal", predicate: try KeyValuePredicate(format: "serial < 3"),
                                                          sortDescriptors: [KeyValueSortDescriptor(key: "serial")]))
        let fault = try context.object(with: ids[4])
        let other = ManagedObjectContext(coordinator: coordinator)
        try other.object(with: ids[1]).setValue(Int64(10), forKey: "serial")
        try other.save()
        coordinator.rowCache.remove(ids)
        var observation = Observation()
        let descending = [KeyValueSortDescriptor(key: "serial", ascending: false)]
        for (format, limit) in [("serial >= 1", 0), ("serial >= 3", 0), ("serial >= 1", 2)] {
            var request = EntityFetchRequest(entityName: "Animal", predicate: try KeyValuePredicate(format: format),
                                             sortDescriptors: descending)
            request.fetchLimit = limit
            let objects = try context.fetch(request)
            observation.serials.append(try objects.map { try #require($0.value(forKey: "serial") as? Int64) })
        }
        let all = try context.fetch(EntityFetchRequest(entityName: "Animal", sortDescriptors: [KeyValueSortDescriptor(key: "name")]))
        observation.sameInstances = [all[1] === loaded[1], all[2] === loaded[2], all[4] === fault]
        observation.faultFilled = !fault.isFault
        observation.cachedNames = ids.map { id in
            guard case .string(let name)? = coordinator.rowCache.row(for: id, maximumAge: -1)?.attributes["name"] else { return nil }
            return name
        }
        observation.staleSerialKept = try loaded[1].value(forKey: "serial") as? Int64
        return observation
    }

    @Test func aFetchReadsTheSelectionAsTheGeneralPathReadsTheAnswer() throws {
        let fast = try Self.observe(InMemoryStore())
        let general = try Self.observe(WrappedStore())
        #expect(fast == general)
        // The loaded object saved elsewhere keeps its own (older) values, which decide whether
        // and where it matches; the fault and the unloaded objects are made from their rows.
        #expect(fast.serials == [[5, 4, 3, 2, 1], [5, 4, 3], [5, 4]])
        #expect(fast.sameInstances == [true, true, true])
        #expect(fast.faultFilled)
        #expect(fast.staleSerialKept == 1)
        // Only rows that made or filled an object are cached (the fault's, the unloaded ones').
        #expect(fast.cachedNames == [nil, nil, nil, "animal 3", "animal 4", "animal 5"])
    }
}
