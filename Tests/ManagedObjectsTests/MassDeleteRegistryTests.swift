import Foundation
import Testing
@testable import ManagedObjects

/// A save that deletes most registered objects makes the registry anew with the objects that
/// stay (not one removal per deleted object): the same objects stay registered, under the same
/// IDs, and the deleted ones leave the context, as with fewer deletes.
@Suite struct MassDeleteRegistryTests {
    static func stack() throws -> ManagedObjectContext {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", properties: [.attribute("rank", .integer64)]),
        ])
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// Saves `count` items, deletes those whose rank `isDeleted` picks, saves again; checks the
    /// registry and the deleted objects afterwards.
    static func check(count: Int, isDeleted: (Int) -> Bool) throws {
        let context = try stack()
        var items: [ManagedObject] = []
        for rank in 0..<count {
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue(Int64(rank), forKey: "rank")
            items.append(item)
        }
        try context.save()
        let ids = items.map(\.objectID)
        for rank in 0..<count where isDeleted(rank) { context.delete(items[rank]) }
        try context.save()
        for rank in 0..<count {
            if isDeleted(rank) {
                #expect(context.registeredObject(for: ids[rank]) == nil)
                #expect(items[rank].managedObjectContext == nil)
            } else {
                #expect(context.registeredObject(for: ids[rank]) === items[rank])
                #expect(items[rank].managedObjectContext === context)
            }
        }
        let kept = (0..<count).filter { !isDeleted($0) }
        #expect(context.registeredObjects == Set(kept.map { items[$0] }))
        // The context goes on working with the registry it made: the kept objects change and
        // save, a fetch finds exactly them.
        for rank in kept { try items[rank].setValue(Int64(1000 + rank), forKey: "rank") }
        try context.save()
        let fetched = try context.fetch(EntityFetchRequest(entityName: "Item"))
        #expect(Set(fetched) == Set(kept.map { items[$0] }))
    }

    @Test func deletingEveryObjectEmptiesTheRegistry() throws {
        try Self.check(count: 3 * ManagedObjectContext.registryRebuildMinimum) { _ in true }
    }

    @Test func deletingMostObjectsKeepsTheOthersRegistered() throws {
        try Self.check(count: 4 * ManagedObjectContext.registryRebuildMinimum) { $0 % 4 != 0 }
    }

    @Test func deletingFewObjectsRemovesThemOneByOne() throws {
        // Below the threshold (fewer than half, or fewer than the minimum): the same outcome.
        try Self.check(count: 4 * ManagedObjectContext.registryRebuildMinimum) { $0 % 4 == 0 }
        try Self.check(count: ManagedObjectContext.registryRebuildMinimum) { $0 % 2 == 0 }
    }
}
