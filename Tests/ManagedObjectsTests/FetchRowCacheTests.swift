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

    // A fetch's answer is entered by ID only when the cache is next read or changed: every
    // later operation sees what it would have seen had the rows been entered at once.

    static func row(_ id: ManagedObjectID, _ name: String, version: Int64 = 1) -> StoreRow {
        StoreRow(objectID: id, version: version, attributes: ["name": .string(name)])
    }

    static func ids(_ count: Int) -> [ManagedObjectID] {
        (1...count).map { ManagedObjectID(entityName: "Item", storeIdentifier: "S", primaryKey: Int64($0)) }
    }

    @Test func laterRowsReplaceTheRowsOfAnEarlierAnswer() throws {
        let cache = RowCache()
        let ids = Self.ids(3)
        cache.store(ids.map { Self.row($0, "first") })
        cache.store(CollectionOfOne(Self.row(ids[0], "single", version: 2)))
        cache.store([Self.row(ids[1], "second", version: 3), Self.row(ids[2], "second", version: 3)])
        #expect(cache.row(for: ids[0], maximumAge: -1) == Self.row(ids[0], "single", version: 2))
        #expect(cache.row(for: ids[1], maximumAge: -1) == Self.row(ids[1], "second", version: 3))
        #expect(cache.row(for: ids[2], maximumAge: -1) == Self.row(ids[2], "second", version: 3))
    }

    @Test func removedRowsOfAnAnswerStayRemoved() throws {
        let cache = RowCache()
        let ids = Self.ids(3)
        cache.store(ids.map { Self.row($0, "first") })
        cache.remove([ids[1]])
        #expect(cache.row(for: ids[1], maximumAge: -1) == nil)
        #expect(cache.row(for: ids[0], maximumAge: -1) == Self.row(ids[0], "first"))
        // An answer stored after a removal brings the row back.
        cache.store([Self.row(ids[1], "again"), Self.row(ids[2], "again")])
        #expect(cache.row(for: ids[1], maximumAge: -1) == Self.row(ids[1], "again"))
    }

    @Test func anAnswerKeepsTheTimeItWasStored() throws {
        let cache = RowCache()
        let ids = Self.ids(2)
        cache.store(ids.map { Self.row($0, "old") })
        cache.advanceClock(by: 10)
        // Aged 10 s when first looked up: too old for 5 s, young enough for 20 s.
        #expect(cache.row(for: ids[0], maximumAge: 5) == nil)
        #expect(cache.row(for: ids[0], maximumAge: 20) == Self.row(ids[0], "old"))
        #expect(cache.row(for: ids[1], maximumAge: 0) == nil, "a staleness interval of 0 never uses the cache")
    }

    @Test func aSaveAfterAnAnswerReplacesItsRows() throws {
        let (coordinator, ids) = try Self.coordinatorWithItems(3)
        let context = ManagedObjectContext(coordinator: coordinator)
        let objects = try context.fetch(EntityFetchRequest(entityName: "Item", sortDescriptors: [KeyValueSortDescriptor(key: "serial")]))
        try objects[1].setValue("renamed", forKey: "name")
        try context.save()
        #expect(Self.cachedName(coordinator, ids[1]) == "renamed")
        #expect(Self.cachedName(coordinator, ids[0]) == "item 0")
        // A fault of another context is filled from the cache with the saved row.
        let other = ManagedObjectContext(coordinator: coordinator)
        #expect(try other.object(with: ids[1]).value(forKey: "name") as? String == "renamed")
    }
}
