// Undoing a delete keeps the object's earlier changes (session 12's hostile trial, finding N1):
// each body takes a store factory, so the same cases run on the in-memory store
// (ManagedObjectsTests) and the SQLite store (SQLiteStoreTests).
import Foundation
import KeyValueCoding
import ManagedObjects
import Testing
import UndoManagement

/// Shared test bodies: a saved object changed in one event and deleted in a later one, the
/// delete undone, then saved.
package enum UndoDeleteMatrix {
    /// The cases, for one parameterised test per store kind.
    package enum Case: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case attribute, toOne, childContext, cascade, redoThenUndo, rollbackAfterUndo, unchangedObject
        package var testDescription: String { rawValue }
    }

    /// Runs one case on a store of `factory`.
    package static func run(_ which: Case, _ factory: TestStoreFactory) throws {
        switch which {
        case .attribute: try attributeChangeSurvivesUndoneDelete(factory)
        case .toOne: try toOneChangeSurvivesUndoneDelete(factory)
        case .childContext: try childChangeSurvivesUndoneDelete(factory)
        case .cascade: try changeSurvivesUndoneCascade(factory)
        case .redoThenUndo: try redoDeletesAgainAndUndoRestoresAgain(factory)
        case .rollbackAfterUndo: try rollbackAfterUndoRestoresCommittedValue(factory)
        case .unchangedObject: try unchangedObjectStaysUnchanged(factory)
        }
    }

    /// Shelves holding items; deleting a shelf deletes its items.
    package static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Shelf", properties: [
                .attribute("name", .string), .toMany("items", "Item", inverse: "shelf", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Item", properties: [.attribute("name", .string), .toOne("shelf", "Shelf", inverse: "items")]),
        ])
    }

    /// A coordinator on a store of `factory` holding shelves S0 and S1 and item "v0" on S0, and
    /// the item's ID.
    package static func stocked(_ factory: TestStoreFactory) throws -> (PersistentStoreCoordinator, ManagedObjectID) {
        let coordinator = try factory.coordinator(try model())
        let setup = ManagedObjectContext(coordinator: coordinator)
        var shelves: [ManagedObject] = []
        for index in 0..<2 {
            let shelf = try setup.insertNewObject(forEntityNamed: "Shelf")
            try shelf.setValue("S\(index)", forKey: "name")
            shelves.append(shelf)
        }
        let item = try setup.insertNewObject(forEntityNamed: "Item")
        try item.setValue("v0", forKey: "name")
        try item.setValue(shelves[0], forKey: "shelf")
        try setup.save()
        return (coordinator, item.objectID)
    }

    /// A context with an undo manager on `coordinator`, and the item in it.
    static func undoContext(_ coordinator: PersistentStoreCoordinator, _ id: ManagedObjectID) throws -> (ManagedObjectContext, ManagedObject) {
        let context = ManagedObjectContext(coordinator: coordinator)
        context.undoManager = UndoHistory()
        return (context, try context.existingObject(with: id))
    }

    /// A stocked store (``stocked(_:)``) and a context with an undo manager whose item was
    /// renamed "v1" in an event of its own.
    static func renamed(_ factory: TestStoreFactory) throws
        -> (PersistentStoreCoordinator, ManagedObjectID, ManagedObjectContext, ManagedObject) {
        let (coordinator, id) = try stocked(factory)
        let (context, item) = try undoContext(coordinator, id)
        try item.setValue("v1", forKey: "name")
        context.processPendingChanges()
        return (coordinator, id, context, item)
    }

    /// The item's name as a fresh context on `coordinator` reads it from the store.
    static func storedName(_ coordinator: PersistentStoreCoordinator, _ id: ManagedObjectID) throws -> String? {
        try ManagedObjectContext(coordinator: coordinator).existingObject(with: id).value(forKey: "name") as? String
    }

    /// Deletes `object` in an event of its own, then undoes the delete.
    static func deleteAndUndo(_ object: ManagedObject, in context: ManagedObjectContext) throws {
        context.delete(object)
        context.processPendingChanges()
        #expect(object.isDeleted)
        try context.undo()
    }

    /// The item after the undo: updated, its change pending, "v0" committed.
    static func expectPendingRename(_ item: ManagedObject, in context: ManagedObjectContext) throws {
        #expect(!item.isDeleted)
        #expect(item.isUpdated)
        #expect(context.hasChanges)
        #expect(context.updatedObjects.contains(item))
        #expect(try item.value(forKey: "name") as? String == "v1")
        #expect(item.changedValues()["name"] as? String == "v1")
        #expect(item.committedValues(forKeys: ["name"])["name"] as? String == "v0")
    }

    static func attributeChangeSurvivesUndoneDelete(_ factory: TestStoreFactory) throws {
        let (coordinator, id, context, item) = try renamed(factory)
        try deleteAndUndo(item, in: context)
        try expectPendingRename(item, in: context)
        try context.save()
        #expect(!context.hasChanges)
        #expect(try storedName(coordinator, id) == "v1")
    }

    static func toOneChangeSurvivesUndoneDelete(_ factory: TestStoreFactory) throws {
        let (coordinator, id) = try stocked(factory)
        let (context, item) = try undoContext(coordinator, id)
        let shelves = try context.fetch(EntityFetchRequest(entityName: "Shelf"))
        let s0 = try #require(shelves.first { ((try? $0.value(forKey: "name")) as? String) == "S0" })
        let s1 = try #require(shelves.first { ((try? $0.value(forKey: "name")) as? String) == "S1" })
        try item.setValue(s1, forKey: "shelf")
        context.processPendingChanges()
        try deleteAndUndo(item, in: context)
        #expect(item.isUpdated)
        #expect(context.hasChanges)
        #expect(try item.value(forKey: "shelf") as? ManagedObject === s1)
        #expect(item.changedValues()["shelf"] as? ManagedObject === s1)
        #expect(item.committedValues(forKeys: ["shelf"])["shelf"] as? ManagedObject === s0)
        #expect((try s1.value(forKey: "items") as? Set<ManagedObject>)?.contains(item) == true)
        try context.save()
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let stored = try fresh.existingObject(with: id).value(forKey: "shelf") as? ManagedObject
        #expect(stored?.objectID == s1.objectID)
    }

    static func childChangeSurvivesUndoneDelete(_ factory: TestStoreFactory) throws {
        let (coordinator, id) = try stocked(factory)
        let root = ManagedObjectContext(coordinator: coordinator)
        let rootItem = try root.existingObject(with: id)
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: root)
        child.undoManager = UndoHistory()
        let item = try child.existingObject(with: id)
        try item.setValue("v1", forKey: "name")
        child.processPendingChanges()
        try deleteAndUndo(item, in: child)
        try expectPendingRename(item, in: child)
        try child.save()
        #expect(try rootItem.value(forKey: "name") as? String == "v1")
        #expect(rootItem.isUpdated)
        try root.save()
        #expect(try storedName(coordinator, id) == "v1")
    }

    /// Not affected before the fix either: the cascade's undo restored the item's inverse,
    /// which marked it updated again.
    static func changeSurvivesUndoneCascade(_ factory: TestStoreFactory) throws {
        let (coordinator, id, context, item) = try renamed(factory)
        try deleteAndUndo(try #require(try item.value(forKey: "shelf") as? ManagedObject), in: context)
        try expectPendingRename(item, in: context)
        try context.save()
        #expect(try storedName(coordinator, id) == "v1")
    }

    static func redoDeletesAgainAndUndoRestoresAgain(_ factory: TestStoreFactory) throws {
        let (coordinator, id, context, item) = try renamed(factory)
        try deleteAndUndo(item, in: context)
        try context.redo()
        #expect(item.isDeleted)
        #expect(!item.isUpdated)
        try context.undo()
        try expectPendingRename(item, in: context)
        // Undoing the rename too leaves "v0" (still updated, as after any undone change).
        try context.undo()
        #expect(try item.value(forKey: "name") as? String == "v0")
        #expect(item.changedValues().isEmpty)
        try context.redo()
        try expectPendingRename(item, in: context)
        try context.save()
        #expect(try storedName(coordinator, id) == "v1")
    }

    static func rollbackAfterUndoRestoresCommittedValue(_ factory: TestStoreFactory) throws {
        let (coordinator, id, context, item) = try renamed(factory)
        try deleteAndUndo(item, in: context)
        context.rollback()
        #expect(try item.value(forKey: "name") as? String == "v0")
        #expect(!item.isUpdated)
        #expect(!context.hasChanges)
        try context.save()
        #expect(try storedName(coordinator, id) == "v0")
    }

    /// An object deleted without earlier changes comes back unchanged.
    static func unchangedObjectStaysUnchanged(_ factory: TestStoreFactory) throws {
        let (coordinator, id) = try stocked(factory)
        let (context, item) = try undoContext(coordinator, id)
        _ = try item.value(forKey: "name")
        try deleteAndUndo(item, in: context)
        #expect(!item.isDeleted)
        #expect(!item.isUpdated)
        #expect(item.changedValues().isEmpty)
        #expect(try storedName(coordinator, id) == "v0")
    }
}
