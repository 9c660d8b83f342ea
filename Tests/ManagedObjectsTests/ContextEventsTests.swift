import Foundation
import Synchronization
import Testing
import KeyValueCoding
import UndoManagement
import Predicates
@testable import ManagedObjects

private final class Journal: ManagedObject {
    var calls: [String] = []
    override func awakeFromInsert() { calls.append("awakeFromInsert"); try? setValue("untitled", forKey: "name") }
    override func willSave() { calls.append("willSave") }
    override func didSave() { calls.append("didSave") }
    override func prepareForDeletion() { calls.append("prepareForDeletion") }
}

@Suite struct ContextEventsTests {
    static func context() throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: try ContextSaveFetchTests.fruitModel())
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test func processPendingChangesReportsOneEvent() throws {
        let context = try Self.context()
        let center = NotificationCenter()
        context.notificationCenter = center
        var batches: [ManagedObjectContext.Changes] = []
        let token = context.onObjectsDidChange { batches.append($0) }
        let postedKeys = Mutex<[String]>([])
        let observer = center.addObserver(forName: ManagedObjectContext.objectsDidChangeNotification, object: context, queue: nil) { note in
            let inserted = (note.userInfo?["inserted"] as? Set<ManagedObject>)?.count ?? 0
            postedKeys.withLock { $0.append("inserted:\(inserted)") }
        }
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        context.processPendingChanges()
        #expect(batches.count == 1 && batches[0].inserted == [stand] && batches[0].updated.isEmpty)
        #expect(postedKeys.withLock { $0 } == ["inserted:1"])
        context.processPendingChanges()
        #expect(batches.count == 1, "nothing changed: nothing posted")
        try context.save()
        try stand.setValue("Market", forKey: "name")
        context.processPendingChanges()
        #expect(batches.last?.updated == [stand])
        token.cancel()
        try stand.setValue("Station", forKey: "name")
        context.processPendingChanges()
        #expect(batches.count == 2)
        center.removeObserver(observer)
    }

    @Test func didSaveCarriesPermanentIDsAndMergesIntoAnotherContext() throws {
        let context = try Self.context()
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        try context.save()
        let other = ManagedObjectContext(coordinator: try #require(context.coordinator))
        let mirror = try #require(other.fetch(EntityFetchRequest(entityName: "Stand")).first)
        var saves: [ManagedObjectContext.SaveResult] = []
        let token = context.onDidSave { result, _ in saves.append(result) }
        try stand.setValue("Market", forKey: "name")
        try context.save()
        #expect(saves.first?.updatedObjectIDs == [stand.objectID])
        #expect(try mirror.value(forKey: "name") as? String == "Corner")
        other.mergeChanges(from: try #require(saves.first))
        #expect(try mirror.value(forKey: "name") as? String == "Market")
        context.delete(stand)
        try context.save()
        other.mergeChanges(from: try #require(saves.last))
        #expect(other.registeredObject(for: mirror.objectID) == nil)
        withExtendedLifetime(token) {}
    }

    @Test func undoAndRedoRestoreTheGraphStepByStep() throws {
        let context = try Self.context()
        let history = UndoHistory()
        context.undoManager = history
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        context.processPendingChanges()                      // step 1: insert the stand
        let crate = try context.insertNewObject(forEntityNamed: "Crate")
        try crate.setValue(stand, forKey: "stand")
        let apple = try context.insertNewObject(forEntityNamed: "Apple")
        try apple.setValue(2.4, forKey: "radius")
        try apple.setValue(crate, forKey: "crate")
        context.processPendingChanges()                      // step 2: a crate with an apple
        try context.save()
        try apple.setValue(2.6, forKey: "radius")
        context.processPendingChanges()                      // step 3: a change after the save
        context.delete(stand)                                // step 4: cascades to crate and apple
        context.processPendingChanges()
        #expect(context.deletedObjects.count == 3)

        try context.undo()                                   // undo 4
        #expect(context.deletedObjects.isEmpty)
        #expect(try apple.value(forKeyPath: "crate.stand.name") as? String == "Corner")
        try context.undo()                                   // undo 3
        #expect(try apple.value(forKey: "radius") as? Double == 2.4)
        try context.undo()                                   // undo 2 (across the save)
        #expect(crate.isDeleted && apple.isDeleted, "undoing an insert after a save deletes the object")
        #expect((try stand.value(forKey: "crates") as? Set<ManagedObject>)?.isEmpty == true, "\(stand)")
        try context.redo()                                   // redo 2
        #expect(try apple.value(forKeyPath: "crate.stand.name") as? String == "Corner")
        #expect(crate.managedObjectContext === context)
        try context.redo()                                   // redo 3
        #expect(try apple.value(forKey: "radius") as? Double == 2.6)
    }

    /// Undoing the delete of objects that were never saved (they leave the context) puts them
    /// back on both sides of their relationships, through a nullify and a cascade; redo
    /// deletes them again. The context must insert them again before it restores the inverses.
    @Test func undoingTheDeleteOfUnsavedObjectsRestoresBothSidesOfTheirRelationships() throws {
        let context = try Self.context()
        context.undoManager = UndoHistory()
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        let crate = try context.insertNewObject(forEntityNamed: "Crate")
        try crate.setValue(stand, forKey: "stand")
        let apples = try (0..<2).map { index in
            let apple = try context.insertNewObject(forEntityNamed: "Apple")
            try apple.setValue(2.0 + Double(index), forKey: "radius")
            try apple.setValue(crate, forKey: "crate")
            return apple
        }
        context.processPendingChanges()
        func fruit() throws -> Set<ManagedObject> { try #require(crate.value(forKey: "fruit") as? Set<ManagedObject>) }
        func crates() throws -> Set<ManagedObject> { try #require(stand.value(forKey: "crates") as? Set<ManagedObject>) }

        context.delete(apples[1])                            // nullify: out of crate.fruit
        context.processPendingChanges()
        #expect(try fruit() == [apples[0]] && apples[1].managedObjectContext == nil)
        try context.undo()
        #expect(try fruit() == Set(apples) && apples[1].managedObjectContext === context)
        #expect(context.insertedObjects.contains(apples[1]))

        context.delete(stand)                                // cascade: the crate and both apples
        context.processPendingChanges()
        #expect(context.insertedObjects.isEmpty)
        try context.undo()
        #expect(context.insertedObjects == Set([stand, crate] + apples))
        #expect(try crates() == [crate] && fruit() == Set(apples))
        #expect(try apples[0].value(forKeyPath: "crate.stand.name") as? String == "Corner")
        try context.redo()
        #expect(context.insertedObjects.isEmpty && crate.managedObjectContext == nil)
        try context.undo()
        try context.save()
        #expect(try context.count(for: EntityFetchRequest(entityName: "Apple", predicate: KeyValuePredicate(format: "crate.stand.name == 'Corner'"))) == 2)
    }

    @Test func lifecycleHooksRunInOrder() throws {
        let model = try ContextSaveFetchTests.fruitModel()
        try model.setManagedObjectClass(Journal.self, forEntityNamed: "Stand")
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let journal = try Journal(entityName: "Stand", in: context.model)
        try context.insert(journal)
        #expect(try journal.value(forKey: "name") as? String == "untitled")
        try context.save()
        context.delete(journal)
        try context.save()
        #expect(journal.calls == ["awakeFromInsert", "willSave", "didSave", "prepareForDeletion", "willSave", "didSave"])
    }

    @Test func refreshDropsOrMergesUnsavedChanges() throws {
        let context = try Self.context()
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        try context.save()
        try stand.setValue("Draft", forKey: "name")
        context.refresh(stand, mergeChanges: false)
        #expect(stand.isFault && !context.hasChanges)
        #expect(try stand.value(forKey: "name") as? String == "Corner")
        #expect(!stand.isFault)
        context.reset()
        #expect(context.registeredObjects.isEmpty && stand.managedObjectContext == nil)
    }
}
