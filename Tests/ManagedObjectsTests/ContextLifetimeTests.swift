import Foundation
import Testing
import TestSupport
import UndoManagement
@testable import ManagedObjects

/// Objects and undo managers that outlive their context (trial13 T9, T10).
@Suite struct ContextLifetimeTests {
    /// A saved stand with a crate holding an apple, each loaded in a context that is gone on
    /// return (the objects are returned, the context is not).
    static func orphans() throws -> (stand: TypedStand, crate: TypedCrate, apple: TypedApple) {
        let coordinator = PersistentStoreCoordinator(model: try TypedFixtures.model())
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let stand = try context.insertNewObject(forEntityNamed: "Stand") as! TypedStand
        stand.name = "Corner"
        let crate = try context.insertNewObject(forEntityNamed: "Crate") as! TypedCrate
        crate.stand = stand
        let apple = try context.insertNewObject(forEntityNamed: "Apple") as! TypedApple
        apple.radius = 2
        apple.crate = crate
        try context.save()
        apple.radius = 3   // unsaved
        return (stand, crate, apple)
    }

    @Test func attributesStillReadAndRelationshipsAreFaultsThatCannotFire() throws {
        let (stand, crate, apple) = try Self.orphans()
        #expect(apple.managedObjectContext == nil)
        #expect(!apple.isFault)
        #expect(apple.radius == 3 && stand.name == "Corner", "loaded values (the last ones) still read")
        #expect(try apple.value(forKey: "radius") as? Double == 3)
        // Relationships were cut: typed reads give empty values, and every relationship says
        // it is a fault; key-value coding throws as a fault of the gone context does.
        #expect(apple.crate == nil && crate.fruit.isEmpty && stand.crates.isEmpty)
        for (object, key) in [(apple, "crate"), (crate, "fruit"), (crate, "stand"), (stand, "crates")] as [(ManagedObject, String)] {
            #expect(object.hasFault(forRelationshipNamed: key), "\(key)")
            #expect(throws: ManagedObjectContextError.faultNotFulfilled(object.objectID, reason: .contextGone)) {
                try object.value(forKey: key)
            }
        }
        // Key paths read through key tables that cannot throw: empty, as through a fault.
        #expect(try apple.value(forKeyPath: "crate.capacity") == nil)
        #expect(apple.hasFault(forRelationshipNamed: "crate"), "a typed read does not make it look loaded")
    }

    @Test func changesByKeyAreRefusedAndTypedChangesStayInMemory() throws {
        let (_, crate, apple) = try Self.orphans()
        #expect(throws: ManagedObjectContextError.contextGone(apple.objectID)) { try apple.setValue(4.0, forKey: "radius") }
        #expect(throws: ManagedObjectContextError.contextGone(crate.objectID)) { try crate.setValue(nil, forKey: "stand") }
        #expect(apple.radius == 3, "nothing changed")
        apple.radius = 5   // a typed store cannot throw: the value changes in memory only
        #expect(apple.radius == 5 && !apple.hasChanges)
        // A key path write is refused as a write by key is (ReleasedContextWriteTests).
        #expect(throws: ManagedObjectContextError.contextGone(apple.objectID)) { try apple.setValue(6.0, forKeyPath: "radius") }
        #expect(apple.radius == 5 && !apple.hasChanges)
        let text = ManagedObjectContextError.contextGone(apple.objectID).description
        #expect(text.contains("outlived its context"), "\(text)")
    }

    @Test func objectsOfALiveContextAndObjectsOutsideAnyContextTakeChangesByKey() throws {
        let model = try TypedFixtures.model()
        let free = try TypedApple(entityName: "Apple", in: model)
        try free.setValue(1.5, forKey: "radius")
        #expect(try free.value(forKey: "radius") as? Double == 1.5)
        let context = ManagedObjectContext(model: model)
        let apple = try context.insertNewObject(forEntityNamed: "Apple")
        try apple.setValue(1.0, forKey: "radius")
        #expect(try apple.value(forKey: "crate") == nil && !apple.hasFault(forRelationshipNamed: "crate"))
    }

    /// A stand named `names` one after the other (an undo group each) in `context`, which
    /// records into `undo`.
    static func stand(in context: ManagedObjectContext, undo: UndoHistory, names: [String]) throws -> TypedStand {
        context.undoManager = undo
        let stand = try context.insertNewObject(forEntityNamed: "Stand") as! TypedStand
        for name in names {
            stand.name = name
            context.processPendingChanges()
        }
        return stand
    }

    @Test func theContextsUndoActionsLeaveTheUndoManagerWithIt() throws {
        let model = try TypedFixtures.model()
        let undo = UndoHistory()
        let survivor = ManagedObjectContext(model: model)
        _ = try Self.stand(in: survivor, undo: undo, names: ["kept"])
        var orphan: TypedStand?
        do {
            orphan = try Self.stand(in: ManagedObjectContext(model: model), undo: undo, names: ["one", "two"])
        }
        #expect(undo.canUndo, "the surviving context's group stays")
        try survivor.undo()
        #expect(survivor.insertedObjects.isEmpty, "the undo undid the survivor's insert, not a dead context's change")
        #expect(!undo.canUndo)
        #expect(orphan?.name == "two")

        // Alone: nothing left to undo once the context is gone.
        let lone = UndoHistory()
        do {
            let context = ManagedObjectContext(model: model)
            _ = try Self.stand(in: context, undo: lone, names: ["x"])
            #expect(lone.canUndo)
        }
        #expect(!lone.canUndo && !lone.canRedo)
    }
}
