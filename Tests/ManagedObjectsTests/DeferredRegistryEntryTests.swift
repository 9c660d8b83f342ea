import Foundation
import Testing
@testable import ManagedObjects

/// Objects inserted without an ID are registered without a registry entry until the registry
/// is used (the entry is then made under the ID they have): every look-up still finds every
/// registered object, each once; a save gives them permanent IDs in place; an ID asked for
/// before the save is temporary and stops naming the object after it, as Apple's.
@Suite struct DeferredRegistryEntryTests {
    static let model: ManagedObjectModel = {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("title", .string, isOptional: false),
                                                         .attribute("rank", .integer64)]),
        ])
    }()

    func context() throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: Self.model)
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    func insertNotes(_ count: Int, from first: Int = 0, into context: ManagedObjectContext) throws -> [ManagedObject] {
        try (first..<first + count).map { index in
            let note = try context.insertNewObject(forEntityNamed: "Note")
            try note.setValue("note \(index)", forKey: "title")
            try note.setValue(Int64(index), forKey: "rank")
            return note
        }
    }

    /// Every object is registered once, under its ID, and found by it.
    func expectRegistryHolds(_ objects: [ManagedObject], in context: ManagedObjectContext,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(context.registeredObjects == Set(objects), sourceLocation: sourceLocation)
        #expect(context.registered.count == objects.count, sourceLocation: sourceLocation)
        for object in objects {
            #expect(context.registeredObject(for: object.objectID) === object, sourceLocation: sourceLocation)
        }
    }

    @Test func savedObjectsAreFoundByTheirPermanentIDsOnly() throws {
        let context = try context()
        let notes = try insertNotes(50, into: context)
        // Asked before the save: temporary, and it names the object until the save.
        let temporary = notes[7].objectID
        #expect(temporary.isTemporaryID && context.registeredObject(for: temporary) === notes[7])
        try context.save()
        #expect(notes.allSatisfy { !$0.objectID.isTemporaryID })
        #expect(Set(notes.map(\.objectID)).count == notes.count)
        expectRegistryHolds(notes, in: context)
        #expect(context.registeredObject(for: temporary) == nil)
        #expect(try context.existingObject(with: notes[20].objectID) === notes[20])
        // A fetch finds the registered objects (uniquing), no second object per row.
        let fetched = try context.fetch(EntityFetchRequest(entityName: "Note"))
        #expect(Set(fetched) == Set(notes) && fetched.count == notes.count)
        expectRegistryHolds(notes, in: context)
    }

    @Test func objectsNobodyAskedForTheirIDsGetPermanentOnesDirectly() throws {
        let context = try context()
        let notes = try insertNotes(20, into: context)
        #expect(notes.allSatisfy { $0.knownObjectID == nil })
        #expect(context.unindexedInserts.count == 20 && context.registeredByID.isEmpty)
        try context.save()
        #expect(notes.allSatisfy { $0.knownObjectID.map { !$0.isTemporaryID } ?? false })
        // Nothing looked the objects up yet: their entries still wait, under permanent IDs.
        #expect(context.unindexedInserts.count == 20 && context.unindexedInsertsHavePermanentIDs)
        expectRegistryHolds(notes, in: context)
        #expect(context.unindexedInserts.isEmpty && context.registeredByID.count == 20)
    }

    @Test func severalSavesWithoutLookUpsKeepEveryObjectOnce() throws {
        let context = try context()
        var notes: [ManagedObject] = []
        for round in 0..<4 {
            notes += try insertNotes(25, from: 25 * round, into: context)
            try context.save()
        }
        #expect(Set(notes.map(\.objectID)).count == 100)
        expectRegistryHolds(notes, in: context)
        // The store holds every row once, each with its values.
        let other = ManagedObjectContext(coordinator: context.coordinator!)
        let ranks = try other.fetch(EntityFetchRequest(entityName: "Note")).map { try $0.value(forKey: "rank") as! Int64 }
        #expect(ranks.sorted() == (0..<100).map(Int64.init))
    }

    @Test func insertingAWaitingObjectAgainChangesNothing() throws {
        let context = try context()
        let notes = try insertNotes(3, into: context)
        try context.insert(notes[1])
        #expect(context.insertedObjects == Set(notes))
        expectRegistryHolds(notes, in: context)
    }

    @Test func aWaitingObjectDeletedBeforeTheSaveLeavesTheRegistry() throws {
        let context = try context()
        let notes = try insertNotes(10, into: context)
        context.delete(notes[4])
        #expect(notes[4].managedObjectContext == nil)
        let kept = notes.filter { $0 !== notes[4] }
        expectRegistryHolds(kept, in: context)
        try context.save()
        expectRegistryHolds(kept, in: context)
        #expect(try context.count(for: EntityFetchRequest(entityName: "Note")) == 9)
    }

    @Test func aFailedSaveLeavesTheObjectsOnTemporaryIDsOrNone() throws {
        let context = try context()
        let notes = try insertNotes(6, into: context)
        let asked = notes[2].objectID
        // A missing required title fails validation.
        let untitled = try context.insertNewObject(forEntityNamed: "Note")
        #expect(throws: ManagedObjectValidationError.self) { try context.save() }
        #expect(notes[2].objectID == asked && asked.isTemporaryID)
        #expect((notes + [untitled]).allSatisfy { $0.objectID.isTemporaryID })
        expectRegistryHolds(notes + [untitled], in: context)
        try untitled.setValue("late", forKey: "title")
        try context.save()
        #expect((notes + [untitled]).allSatisfy { !$0.objectID.isTemporaryID })
        #expect(context.registeredObject(for: asked) == nil)
        expectRegistryHolds(notes + [untitled], in: context)
    }

    @Test func aConflictAfterTheIDsPutsTheObjectsBack() throws {
        let context = try context()
        let first = try insertNotes(3, into: context)
        try context.save()
        // Another context changes a saved row first: this context's change of it conflicts,
        // and the save fails after the new objects took their IDs.
        let other = ManagedObjectContext(coordinator: context.coordinator!)
        try other.existingObject(with: first[0].objectID).setValue("theirs", forKey: "title")
        try other.save()
        try first[0].setValue("mine", forKey: "title")
        let notes = try insertNotes(4, from: 3, into: context)
        let asked = notes[0].objectID
        #expect(throws: ManagedObjectMergeError.self) { try context.save() }
        #expect(notes[0].objectID == asked && notes.allSatisfy { $0.objectID.isTemporaryID })
        expectRegistryHolds(first + notes, in: context)
        // Resolved, the save goes through with every object once.
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        #expect(notes.allSatisfy { !$0.objectID.isTemporaryID })
        expectRegistryHolds(first + notes, in: context)
    }
}
