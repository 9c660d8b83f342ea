import Foundation
import Synchronization
import Testing
@testable import ManagedObjects

/// A class bound to the "Crate" entity that counts the runs of its initialiser.
private final class CountingCrate: ManagedObject {
    static let made = Atomic<Int>(0)
    override class var entityName: String { "Crate" }

    required init(entityName: String, in model: ManagedObjectModel) throws(ManagedObjectModelError) {
        try super.init(entityName: entityName, in: model)
        Self.made.add(1, ordering: .relaxed)
    }
}

/// A run of inserts and a context's teardown (session 16): a run of inserts of a model in use
/// makes the objects `init(entityName:in:)` makes, and runs a subclass's initialiser for every
/// insert; a saved object that outlives its context is left with no quiet stores (the teardown's
/// short way for objects without records), and keeps the observation state it shared.
@Suite struct InsertAndTeardownShortcutTests {
    static let model: ManagedObjectModel = {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [
                .attribute("title", .string), .attribute("rank", .integer64, defaultValue: 3),
                .attribute("weight", .double, defaultValue: 1.5),
            ]),
            EntityDescription(name: "Tag", properties: [.attribute("label", .string, defaultValue: "new")]),
        ])
    }()

    func stack(_ model: ManagedObjectModel = Self.model) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// The values of an object, by key, as comparable text.
    func valueTexts(_ object: ManagedObject) throws -> [String] {
        try object.entity.allProperties.map { String(describing: try object.value(forKey: $0.name)) }
    }

    @Test func repeatedInsertsMakeTheObjectsTheEntityMakes() throws {
        let context = try stack()
        #expect(!Self.model.isEditable)
        var objects: [ManagedObject] = []
        for kind in ["Note", "Note", "Note", "Tag", "Tag", "Note", "Note"] {
            objects.append(try context.insertNewObject(forEntityNamed: kind))
        }
        for object in objects {
            let made = try ManagedObject(entityName: object.entity.name, in: Self.model)
            #expect(type(of: object) == ManagedObject.self)
            #expect(object.layout === made.layout && object.managedObjectModel === made.managedObjectModel)
            #expect(object.reportsObservationAccess == made.reportsObservationAccess)
            #expect(try valueTexts(object) == valueTexts(made))
            #expect(object.isInserted && object.managedObjectContext === context)
        }
        #expect(try objects[2].value(forKey: "rank") as? Int64 == 3 && objects[4].value(forKey: "label") as? String == "new")
        // Objects of the kept layout store and save as any.
        for (index, note) in objects.enumerated() where note.entity.name == "Note" {
            try note.setValue("note \(index)", forKey: "title")
        }
        try context.save()
        #expect(context.insertedObjects.isEmpty && objects.allSatisfy { !$0.objectID.isTemporaryID })
        #expect(try objects[6].value(forKey: "title") as? String == "note 6")
    }

    @Test func aSubclassInitialiserRunsForEveryInsert() throws {
        let model = TypedFixtures.unboundModel()
        try model.setManagedObjectClass(CountingCrate.self, forEntityNamed: "Crate")
        let context = try stack(model)
        let before = CountingCrate.made.load(ordering: .relaxed)
        for _ in 0..<3 { #expect(try context.insertNewObject(forEntityNamed: "Crate") is CountingCrate) }
        #expect(CountingCrate.made.load(ordering: .relaxed) - before == 3)
        #expect(context.lastInsertedClass?.objectClass == CountingCrate.self)
    }

    @Test func anEditableModelKeepsNothing() throws {
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [.attribute("title", .string)])])
        let context = ManagedObjectContext(model: model)
        _ = try context.insertNewObject(forEntityNamed: "Note")
        _ = try context.insertNewObject(forEntityNamed: "Note")
        #expect(model.isEditable && context.lastInsertedClass == nil)
    }

    @Test func savedObjectsOutliveTheirContextWithoutQuietStores() throws {
        var survivors: [ManagedObject] = []
        do {
            let context = try stack()
            for index in 0..<3 {
                let note = try context.insertNewObject(forEntityNamed: "Note")
                try note.setValue("note \(index)", forKey: "title")
                survivors.append(note)
            }
            try context.save()
            // Saved: in no change set and without records, but with the insert's quiet stores.
            #expect(survivors.allSatisfy { $0.holdsNoChangeRecords && $0.quietConfinement != nil })
        }
        for (index, note) in survivors.enumerated() {
            #expect(note.managedObjectContext == nil && note.changeSetMembership == [])
            #expect(note.quietSlots == 0 && note.quietConfinement == nil)
            #expect(note.committedRecord == nil && note.eventRecord == nil)
            #expect(try note.value(forKey: "title") as? String == "note \(index)")
        }
    }

    @Test func anObjectKeepsTheSharedObservationStateAfterItsContext() throws {
        var note: ManagedObject?
        do {
            let context = try stack()
            note = try context.insertNewObject(forEntityNamed: "Note")
            try context.save()
            #expect(note!.hasOwnerObservationStorage)
        }
        let survivor = try #require(note)
        // The object holds the state it shared (retained by it, not by the context): a first
        // observer's own state adopts that state's sink.
        #expect(survivor.hasOwnerObservationStorage && survivor.keyValueObservationStorage != nil)
        let observation = try survivor.observe("title", options: [.new]) { _, _ in }
        #expect(survivor.keyValueObservationStorage !== nil && survivor.hasOwnerObservationStorage)
        withExtendedLifetime(observation) {}
    }
}
