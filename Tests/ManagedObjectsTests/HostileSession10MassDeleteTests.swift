import Foundation
import Testing
import UndoManagement
@testable import ManagedObjects

/// Hostile checks of a save's mass delete (the registry made anew from the objects that stay,
/// at 64 deletes or more that are at least half the registry): what the user sees afterwards
/// must not depend on whether the registry was rebuilt. Each scenario runs twice, once with the
/// rebuild (few kept objects) and once without (many kept objects), deleting the same number.
@Suite struct HostileSession10MassDeleteTests {
    static let deletes = ManagedObjectContext.registryRebuildMinimum + 16

    static func stack() throws -> ManagedObjectContext {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", properties: [
                .attribute("rank", .integer64),
                .attribute("label", .string),
                .toOne("owner", "Owner", inverse: "items"),
            ]),
            EntityDescription(name: "Owner", properties: [
                .attribute("name", .string, isOptional: false),
                .toMany("items", "Item", inverse: "owner"),
            ]),
        ])
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// `deletes` items to delete plus `kept` items that stay, saved.
    static func items(_ context: ManagedObjectContext, kept: Int) throws -> (doomed: [ManagedObject], kept: [ManagedObject]) {
        let all = try (0..<(deletes + kept)).map { rank -> ManagedObject in
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue(Int64(rank), forKey: "rank")
            return item
        }
        try context.save()
        return (Array(all.prefix(deletes)), Array(all.dropFirst(deletes)))
    }

    /// Kept counts that do and do not make the registry anew.
    static let keptCounts = [4, 8 * deletes]

    @Test(arguments: keptCounts)
    func undoAfterAMassDeleteSaveBringsTheObjectsBack(kept: Int) throws {
        let context = try Self.stack()
        context.undoManager = UndoHistory()
        let (doomed, stay) = try Self.items(context, kept: kept)
        let ids = doomed.map(\.objectID)
        context.processPendingChanges()
        for item in doomed { context.delete(item) }
        context.processPendingChanges()
        try context.save()
        for (item, id) in zip(doomed, ids) {
            #expect(!item.isDeleted && item.managedObjectContext == nil, "kept \(kept)")
            #expect(context.registeredObject(for: id) == nil, "kept \(kept)")
            #expect(throws: (any Error).self) { _ = try context.existingObject(with: id) }
        }
        for item in stay {
            #expect(context.registeredObject(for: item.objectID) === item)
            #expect(try context.existingObject(with: item.objectID) === item)
        }
        try context.undo()
        let back = doomed.filter { $0.managedObjectContext === context }
        // Whatever undo does with deleted-and-saved objects, it does it the same with or
        // without the rebuild: saving again leaves the store with the registry's items.
        try context.save()
        let fetched = try context.fetch(EntityFetchRequest(entityName: "Item"))
        #expect(fetched.count == stay.count + back.count, "kept \(kept): back \(back.count)")
        for item in fetched { #expect(context.registeredObject(for: item.objectID) === item) }
        #expect(context.registeredObjects.count == fetched.count, "kept \(kept)")
    }

    @Test(arguments: keptCounts)
    func insertedAndDeletedInTheSameSaveLeaveNothingBehind(kept: Int) throws {
        let context = try Self.stack()
        let (doomed, stay) = try Self.items(context, kept: kept)
        let fresh = try (0..<Self.deletes).map { rank -> ManagedObject in
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue(Int64(10_000 + rank), forKey: "rank")
            return item
        }
        let freshIDs = fresh.map(\.objectID)
        for item in doomed + fresh { context.delete(item) }
        try context.save()
        #expect(context.registeredObjects == Set(stay), "kept \(kept)")
        for (item, id) in zip(fresh, freshIDs) {
            #expect(item.managedObjectContext == nil && !item.isInserted && !item.isDeleted)
            #expect(context.registeredObject(for: id) == nil && context.registeredObject(for: item.objectID) == nil)
        }
        #expect(try context.count(for: EntityFetchRequest(entityName: "Item")) == stay.count)
    }

    @Test(arguments: keptCounts)
    func aFailedSaveAfterTheDeletesKeepsThemPending(kept: Int) throws {
        let context = try Self.stack()
        let (doomed, stay) = try Self.items(context, kept: kept)
        for item in doomed { context.delete(item) }
        // An owner without its required name: the save fails validation.
        let owner = try context.insertNewObject(forEntityNamed: "Owner")
        try stay[0].setValue(owner, forKey: "owner")
        #expect(throws: (any Error).self) { try context.save() }
        for item in doomed {
            #expect(item.isDeleted && item.managedObjectContext === context, "kept \(kept)")
            #expect(context.registeredObject(for: item.objectID) === item)
        }
        try owner.setValue("Ann", forKey: "name")
        try context.save()
        #expect(context.registeredObjects == Set(stay + [owner]), "kept \(kept)")
        #expect(try context.count(for: EntityFetchRequest(entityName: "Item")) == stay.count)
    }

    @Test(arguments: keptCounts)
    func aChildContextsMassDeleteReachesTheParentAndTheStore(kept: Int) throws {
        let parent = try Self.stack()
        let (doomed, stay) = try Self.items(parent, kept: kept)
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let theirs = try doomed.map { try child.existingObject(with: $0.objectID) }
        let theirKept = try stay.map { try child.existingObject(with: $0.objectID) }
        for item in theirs { child.delete(item) }
        try child.save()
        #expect(child.registeredObjects == Set(theirKept), "kept \(kept)")
        #expect(theirs.allSatisfy { $0.managedObjectContext == nil })
        #expect(doomed.allSatisfy { $0.isDeleted }, "kept \(kept): the parent holds the deletes")
        try parent.save()
        #expect(parent.registeredObjects == Set(stay), "kept \(kept)")
        #expect(try parent.count(for: EntityFetchRequest(entityName: "Item")) == stay.count)
        // The child goes on: its kept objects change and save through the parent.
        for item in theirKept { try item.setValue("x", forKey: "label") }
        try child.save()
        try parent.save()
        #expect(try parent.count(for: EntityFetchRequest(entityName: "Item")) == stay.count)
    }

    @Test(arguments: keptCounts)
    func aDeletedObjectsOwnerForgetsItAndTheIDsRefetchNothing(kept: Int) throws {
        let context = try Self.stack()
        let (doomed, stay) = try Self.items(context, kept: kept)
        let owner = try context.insertNewObject(forEntityNamed: "Owner")
        try owner.setValue("Ann", forKey: "name")
        for item in doomed + stay.prefix(2) { try item.setValue(owner, forKey: "owner") }
        try context.save()
        let ids = doomed.map(\.objectID)
        for item in doomed { context.delete(item) }
        try context.save()
        let members = try owner.value(forKey: "items") as? Set<ManagedObject> ?? []
        #expect(members == Set(stay.prefix(2)), "kept \(kept)")
        for id in ids { #expect(context.registeredObject(for: id) == nil) }
        // A new context finds the same.
        let other = ManagedObjectContext(coordinator: try #require(context.coordinator))
        let otherOwner = try other.existingObject(with: owner.objectID)
        #expect((try otherOwner.value(forKey: "items") as? Set<ManagedObject>)?.count == 2)
    }
}

extension HostileSession10MassDeleteTests {
    /// `existingObject(with:)` for an ID the store no longer has threw, but left a fault
    /// registered for the ID: the registry then held an object no store has, and undoing the
    /// delete could not register the real object back (it was left out of the context and
    /// its row was never saved again).
    @Test func existingObjectForADeletedIDRegistersNothing() throws {
        let context = try Self.stack()
        context.undoManager = UndoHistory()
        let (doomed, stay) = try Self.items(context, kept: 2)
        context.processPendingChanges()
        for item in doomed { context.delete(item) }
        context.processPendingChanges()
        try context.save()
        let id = doomed[0].objectID
        #expect(throws: ManagedObjectContextError.self) { _ = try context.existingObject(with: id) }
        #expect(context.registeredObject(for: id) == nil)
        #expect(context.registeredObjects == Set(stay))
        try context.undo()
        #expect(doomed[0].managedObjectContext === context)
        #expect(context.registeredObject(for: id) === doomed[0])
        try context.save()
        #expect(try context.count(for: EntityFetchRequest(entityName: "Item")) == doomed.count + stay.count)
    }
}

extension HostileSession10MassDeleteTests {
    /// Two stores (added by `StoreDescription.inMemory(configuration:)`): a mass delete across
    /// both makes one registry anew; undo brings every object back to its own store.
    @Test func aMassDeleteAcrossTwoStoresAndItsUndo() throws {
        let coordinator = PersistentStoreCoordinator(model: try HostileLeanSaveTests.model())
        try coordinator.addStore(with: .inMemory(configuration: "Notes"))
        try coordinator.addStore(with: .inMemory(configuration: "Tags"))
        let context = ManagedObjectContext(coordinator: coordinator)
        context.undoManager = UndoHistory()
        let notes = try (0..<100).map { _ in try context.insertNewObject(forEntityNamed: "Note") }
        let tags = try (0..<100).map { _ in try context.insertNewObject(forEntityNamed: "Tag") }
        try context.save()
        context.processPendingChanges()
        let doomed = Array(notes.prefix(80) + tags.prefix(80))
        for object in doomed { context.delete(object) }
        context.processPendingChanges()
        try context.save()
        #expect(context.registeredObjects == Set(notes.suffix(20) + tags.suffix(20)))
        #expect(try HostileLeanSaveTests.fetchAll(coordinator, "Note").count == 20)
        #expect(try HostileLeanSaveTests.fetchAll(coordinator, "Tag").count == 20)
        try context.undo()
        try context.save()
        #expect(doomed.allSatisfy { $0.managedObjectContext === context })
        #expect(try HostileLeanSaveTests.fetchAll(coordinator, "Note").count == 100)
        #expect(try HostileLeanSaveTests.fetchAll(coordinator, "Tag").count == 100)
        #expect(context.registeredObjects.count == 200)
    }

    /// An in-memory description naming a configuration the model does not have is refused
    /// when added, with the configuration's name in the message.
    @Test func anInMemoryDescriptionWithAnUnknownConfigurationIsRefused() throws {
        let coordinator = PersistentStoreCoordinator(model: try HostileLeanSaveTests.model())
        do {
            try coordinator.addStore(with: .inMemory(configuration: "Notse"))
            Issue.record("a store of an unknown configuration was added")
        } catch {
            #expect("\(error)".contains("Notse"), "\(error)")
        }
    }
}

extension HostileSession10MassDeleteTests {
    /// After a mass delete, observers of kept objects are still told, kept faults still fire,
    /// and a child context that held deleted objects sees them gone once it refreshes.
    @Test(arguments: keptCounts)
    func keptObjectsObserversFaultsAndAChildAfterAMassDelete(kept: Int) throws {
        let context = try Self.stack()
        let (doomed, stay) = try Self.items(context, kept: kept)
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: context)
        let theirDoomed = try child.existingObject(with: doomed[0].objectID)
        context.refresh(stay[0], mergeChanges: false)
        #expect(stay[0].isFault)
        var seen: [Int64] = []
        let observation = try stay[1 % stay.count].observe("rank", options: [.new]) { _, change in
            seen.append(change.newValue as? Int64 ?? -1)
        }
        for item in doomed { context.delete(item) }
        try context.save()
        #expect(stay[0].isFault && stay[0].managedObjectContext === context)
        #expect(try stay[0].value(forKey: "rank") as? Int64 == Int64(Self.deletes))
        try stay[1 % stay.count].setValue(Int64(-5), forKey: "rank")
        #expect(seen == [-5])
        child.refresh(theirDoomed, mergeChanges: false)
        #expect(throws: (any Error).self) { _ = try child.existingObject(with: doomed[0].objectID) }
        #expect(child.registeredObject(for: doomed[0].objectID) == nil || theirDoomed.managedObjectContext === child)
        observation.invalidate()
    }
}
