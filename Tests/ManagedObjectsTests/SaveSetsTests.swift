import Foundation
import Synchronization
import Testing
@testable import ManagedObjects

/// Counts its `didSave()` calls (a user's override).
private final class SaveCountingNote: ManagedObject {
    static let didSaves = Mutex<[ObjectIdentifier: Int]>([:])
    override func didSave() {
        Self.didSaves.withLock { $0[ObjectIdentifier(self), default: 0] += 1 }
    }
}

/// The sets a save and an event hand out, made without comparisons where their elements are
/// known to be distinct (DistinctSet), and the bookkeeping of the IDs new objects had before a
/// save: the same contents as the general way, on every path.
@Suite(.serialized) struct SaveSetsTests {
    static func model(uniqueTitle: Bool = false) throws -> ManagedObjectModel {
        var note = EntityDescription(name: "Note", properties: [.attribute("title", .string), .attribute("rank", .integer64)])
        if uniqueTitle { note.uniquenessConstraints = [["title"]] }
        return try ManagedObjectModel(entities: [note])
    }

    static func context(_ model: ManagedObjectModel) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    static func insert(_ count: Int, into context: ManagedObjectContext, from start: Int = 0) throws -> [ManagedObject] {
        try (start..<start + count).map { index in
            let note = try context.insertNewObject(forEntityNamed: "Note")
            try note.setValue("n\(index)", forKey: "title")
            return note
        }
    }

    @Test(arguments: [0, 1, 7, 300])
    func distinctSetsHoldWhatInsertingGives(count: Int) throws {
        let context = try Self.context(try Self.model())
        let notes = try Self.insert(count, into: context)
        #expect(DistinctSet.of(notes) == Set(notes))
        #expect(DistinctSet.of(notes).count == count)
        // Temporary IDs first, then the permanent ones the save gives.
        #expect(DistinctSet.objectIDs(of: notes) == Set(notes.map(\.objectID)))
        try context.save()
        let ids = DistinctSet.objectIDs(of: notes)
        #expect(ids == Set(notes.map(\.objectID)) && ids.count == count)
        #expect(ids.allSatisfy { !$0.isTemporaryID })
        // Every member is found again (the set's buckets hold each where a look-up searches).
        #expect(notes.allSatisfy { ids.contains($0.objectID) && DistinctSet.of(notes).contains($0) })
    }

    /// The event's inserted objects: the usual event of new objects only (made without
    /// comparisons), an event after an earlier one, and an event with a delete, all report
    /// exactly the objects inserted in the event.
    @Test func theEventReportsItsInsertedObjectsOnEveryPath() throws {
        let context = try Self.context(try Self.model())
        var reported: [Set<ManagedObject>] = []
        let token = context.onObjectsDidChange { reported.append($0.inserted) }
        // New objects only: the context's inserted objects are the event's.
        let first = try Self.insert(40, into: context)
        context.processPendingChanges()
        // A second event while the first objects are still inserted (not the same objects).
        let second = try Self.insert(10, into: context, from: 40)
        context.processPendingChanges()
        // An event with a delete of one of its new objects.
        let third = try Self.insert(5, into: context, from: 50)
        context.delete(third[2])
        context.processPendingChanges()
        #expect(reported.count == 3)
        #expect(reported.first == Set(first))
        #expect(reported.dropFirst().first == Set(second))
        #expect(reported.last == Set(third).subtracting([third[2]]))
        withExtendedLifetime(token) {}
    }

    /// The did-save's inserted objects (the event's set, when the event's new objects are the
    /// save's) and IDs match the saved objects, and each saved object's didSave() runs once.
    @Test func theDidSaveAndDidSaveCallsCoverEverySavedObject() throws {
        let model = try Self.model()
        try model.setManagedObjectClass(SaveCountingNote.self, forEntityNamed: "Note")
        let context = try Self.context(model)
        var saves: [(ManagedObjectContext.SaveResult, ManagedObjectContext.Changes)] = []
        let token = context.onDidSave { saves.append(($0, $1)) }
        SaveCountingNote.didSaves.withLock { $0 = [:] }
        let notes = try Self.insert(30, into: context)
        try context.save()
        // An update, a delete and new objects in one save (not the event's set: an earlier
        // event already reported some of the new objects).
        try notes[3].setValue("changed", forKey: "title")
        context.delete(notes[4])
        let early = try Self.insert(2, into: context, from: 30)
        context.processPendingChanges()
        let late = try Self.insert(2, into: context, from: 32)
        try context.save()
        #expect(saves.count == 2)
        #expect(saves.first?.1.inserted == Set(notes))
        #expect(saves.first?.0.insertedObjectIDs == Set(notes.map(\.objectID)))
        #expect(saves.last?.1.inserted == Set(early + late))
        #expect(saves.last?.0.insertedObjectIDs == Set((early + late).map(\.objectID)))
        #expect(saves.last?.1.updated == [notes[3]] && saves.last?.1.deleted == [notes[4]])
        #expect(saves.last?.0.updatedObjectIDs == [notes[3].objectID] && saves.last?.0.deletedObjectIDs == [notes[4].objectID])
        let calls = SaveCountingNote.didSaves.withLock { $0 }
        #expect(calls.count == 34)
        for note in notes where note !== notes[3] && note !== notes[4] { #expect(calls[ObjectIdentifier(note)] == 1) }
        #expect(calls[ObjectIdentifier(notes[3])] == 2 && calls[ObjectIdentifier(notes[4])] == 2)
        #expect((early + late).allSatisfy { calls[ObjectIdentifier($0)] == 1 })
        withExtendedLifetime(token) {}
    }

    /// The IDs new objects had before a save: none made (no list kept) or some made (one per
    /// object); a save that fails gives each object back what it had.
    @Test func knownIDsAreKeptOnlyWhenAnObjectHasOne() throws {
        let context = try Self.context(try Self.model())
        let notes = try Self.insert(4, into: context)
        #expect(ManagedObjectContext.knownIDs(of: notes).isEmpty)
        let asked = notes[2].objectID
        #expect(ManagedObjectContext.knownIDs(of: notes) == [nil, nil, asked, nil])
    }

    /// The integer key read from an ID's scope flags (what the check of a store's new IDs
    /// reads): an integer key's, and none for any other reference.
    @Test func integerKeysComeOnlyFromIntegerReferences() {
        #expect(ManagedObjectID(entityName: "Note", storeIdentifier: "S", primaryKey: 7).integerKey == 7)
        #expect(ManagedObjectID(entityName: "Note", storeIdentifier: "S", primaryKey: 7).withPrimaryKey(9).integerKey == 9)
        #expect(ManagedObjectID(entityName: "Note", storeIdentifier: "S", referenceObject: .string("7")).integerKey == nil)
        #expect(ManagedObjectID(entityName: "Note", storeIdentifier: "S", referenceObject: .temporary(UUID())).integerKey == nil)
        #expect(ManagedObjectID.temporary(entityName: "Note").integerKey == nil)
    }

    /// New objects of one entity take their keys by count (no list of names), any other mix
    /// by the list of names: one counter per inheritance root either way, in insert order.
    @Test func newObjectsOfOneEntityTakeTheKeysTheListWouldGive() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Fruit", isAbstract: true, properties: [.attribute("radius", .double)]),
            EntityDescription(name: "Orange", parent: "Fruit"),
            EntityDescription(name: "Apple", parent: "Fruit"),
            EntityDescription(name: "Crate", properties: [.attribute("label", .string)]),
        ])
        let context = try Self.context(model)
        func key(_ object: ManagedObject) -> Int64? { object.objectID.integerKey }
        func insert(_ names: [String]) throws -> [ManagedObject] {
            try names.map { try context.insertNewObject(forEntityNamed: $0) }
        }
        // One entity: by count.
        let oranges = try insert(Array(repeating: "Orange", count: 3))
        try context.save()
        #expect(oranges.map(key) == [1, 2, 3])
        // A mix: by the list; apples go on from the oranges' root counter.
        let mixed = try insert(["Apple", "Crate", "Apple", "Orange", "Crate"])
        try context.save()
        #expect(mixed.map(key) == [4, 1, 5, 6, 2])
        #expect(mixed.map(\.objectID.entityName) == ["Apple", "Crate", "Apple", "Orange", "Crate"])
        // One entity again: the root's counter goes on.
        let apples = try insert(Array(repeating: "Apple", count: 2))
        try context.save()
        #expect(apples.map(key) == [7, 8])
        #expect(apples.allSatisfy { $0.objectID.entityName == "Apple" && $0.objectID.storeIdentifier == context.coordinator?.stores.first?.identifier })
        for object in oranges + mixed + apples { #expect(try context.existingObject(with: object.objectID) === object) }
    }

    @Test(arguments: [false, true])
    func aFailedSaveGivesNewObjectsBackTheirIDs(askFirst: Bool) throws {
        let context = try Self.context(try Self.model(uniqueTitle: true))
        _ = try Self.insert(1, into: context)
        try context.save()
        let notes = try Self.insert(3, into: context, from: 1)
        // The last one takes the saved object's title: a uniqueness conflict, which the
        // default merge policy does not resolve.
        try notes[2].setValue("n0", forKey: "title")
        let before = askFirst ? notes[0].objectID : nil
        #expect(throws: (any Error).self) { try context.save() }
        #expect(notes.allSatisfy { $0.objectID.isTemporaryID })
        if let before { #expect(notes[0].objectID == before) }
        #expect(Set(notes.map(\.objectID)).count == 3)
        try notes[2].setValue("n9", forKey: "title")
        try context.save()
        #expect(notes.allSatisfy { !$0.objectID.isTemporaryID })
        #expect(try context.existingObject(with: notes[1].objectID) === notes[1])
    }
}
