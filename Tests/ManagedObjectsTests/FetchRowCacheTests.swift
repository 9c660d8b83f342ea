import Foundation
import Testing
import ManagedObjects
import Predicates

/// A fetch caches the rows that made or filled objects (kept as the store's one answer when
/// every row did), and never the rows of objects already loaded in the context.
@Suite struct FetchRowCacheTests {
    static func coordinatorWithItems(_ count: Int) throws -> (PersistentStoreCoordinator, [ManagedObjectID]) {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", properties: [.attribute("serial", .integer64), .attribute("name", .string)]),
        ])
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        var objects: [ManagedObject] = []
        for index in 0..<count {
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue(Int64(index), forKey: "serial")
            try item.setValue("item \(index)", forKey: "name")
            objects.append(item)
        }
        try context.save()
        let ids = objects.map(\.objectID)
        // Saves cache their rows: start from an empty cache.
        coordinator.rowCache.remove(ids)
        return (coordinator, ids)
    }

    static func cachedName(_ coordinator: PersistentStoreCoordinator, _ id: ManagedObjectID) -> String? {
        guard let row = coordinator.rowCache.row(for: id, maximumAge: -1) else { return nil }
        if case .string(let name)? = row.attributes["name"] { return name }
        return "no name"
    }

    @Test func aFetchOfNewObjectsCachesEveryRow() throws {
        let (coordinator, ids) = try Self.coordinatorWithItems(5)
        let context = ManagedObjectContext(coordinator: coordinator)
        let objects = try context.fetch(EntityFetchRequest(entityName: "Item", sortDescriptors: [KeyValueSortDescriptor(key: "serial")]))
        #expect(objects.count == 5)
        #expect(ids.map { Self.cachedName(coordinator, $0) } == (0..<5).map { "item \($0)" })
        // A fault of another context is filled from the cache: same values.
        let other = ManagedObjectContext(coordinator: coordinator)
        let fault = try other.object(with: ids[3])
        #expect(try fault.value(forKey: "name") as? String == "item 3")
    }

    @Test func rowsOfLoadedObjectsAreNotCachedByALaterFetch() throws {
        let (coordinator, ids) = try Self.coordinatorWithItems(4)
        let context = ManagedObjectContext(coordinator: coordinator)
        let first = try context.fetch(EntityFetchRequest(entityName: "Item", predicate: try KeyValuePredicate(format: "serial == 2")))
        #expect(first.count == 1)
        // A fault registered before the fetch is filled by it, so its row is cached.
        let fault = try context.object(with: ids[0])
        #expect(fault.isFault)
        coordinator.rowCache.remove(ids)
        let all = try context.fetch(EntityFetchRequest(entityName: "Item"))
        #expect(all.count == 4)
        #expect(!fault.isFault)
        #expect(Self.cachedName(coordinator, ids[2]) == nil, "the loaded object's row is not looked at")
        #expect(Self.cachedName(coordinator, ids[0]) == "item 0")
        #expect(Self.cachedName(coordinator, ids[1]) == "item 1")
        #expect(Self.cachedName(coordinator, ids[3]) == "item 3")
    }
}
