import Foundation
import Testing
import TestSupport
@testable import ManagedObjects

/// A context that goes away leaves its objects as objects of no context, with no change-set
/// membership and no change records, whether it visits them (relationships to empty, changes
/// recorded) or skips them (fetched objects without relationships that nothing changed).
@Suite struct ContextTeardownTests {
    static let model: ManagedObjectModel = {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("title", .string), .attribute("rank", .integer64)]),
        ])
    }()

    func savedStore(notes: Int) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(model: Self.model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        for index in 0..<notes {
            let note = try context.insertNewObject(forEntityNamed: "Note")
            try note.setValue("note \(index)", forKey: "title")
            try note.setValue(Int64(index), forKey: "rank")
        }
        try context.save()
        return coordinator
    }

    func expectLeftClean(_ object: ManagedObject, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(object.managedObjectContext == nil, sourceLocation: sourceLocation)
        #expect(object.changeSetMembership == [], sourceLocation: sourceLocation)
        #expect(object.committedRecord == nil && object.eventRecord == nil, sourceLocation: sourceLocation)
        #expect(object.quietSlots == 0 && object.quietConfinement == nil, sourceLocation: sourceLocation)
        #expect(!object.hasChanges, sourceLocation: sourceLocation)
    }

    /// The skipped teardown: fetched objects that were only read.
    @Test func fetchedObjectsOutliveTheirContextWithTheirValues() throws {
        let coordinator = try savedStore(notes: 3)
        let tracker = LifetimeTracker()
        var survivors: [ManagedObject] = []
        do {
            let context = tracker.track(ManagedObjectContext(coordinator: coordinator), "context")
            let request = EntityFetchRequest(entityName: "Note")
            survivors = try context.fetch(request)
            #expect(!context.hasRegisteredRelatedObjects && !context.updated.hasHeldObjects)
        }
        tracker.expectAllReleased()
        #expect(survivors.count == 3)
        for note in survivors {
            expectLeftClean(note)
            #expect((try note.value(forKey: "title") as? String)?.hasPrefix("note ") == true)
        }
    }

    /// The visiting teardown: objects changed (and quietly changed again) in the context.
    @Test func changedObjectsLeaveTheirContextWithoutRecords() throws {
        let coordinator = try savedStore(notes: 2)
        var survivors: [ManagedObject] = []
        do {
            let context = ManagedObjectContext(coordinator: coordinator)
            survivors = try context.fetch(EntityFetchRequest(entityName: "Note"))
            for note in survivors {
                try note.setValue("changed", forKey: "title")
                try note.setValue("again", forKey: "title")
            }
            #expect(context.updated.count == 2)
        }
        for note in survivors {
            expectLeftClean(note)
            #expect(try note.value(forKey: "title") as? String == "again")
        }
    }

    /// An inserted object that was deleted again leaves the sets empty, but they held it:
    /// the context still visits its objects.
    @Test func aContextWhoseSetsOnceHeldObjectsVisitsThem() throws {
        let coordinator = try savedStore(notes: 1)
        var survivors: [ManagedObject] = []
        do {
            let context = ManagedObjectContext(coordinator: coordinator)
            survivors = try context.fetch(EntityFetchRequest(entityName: "Note"))
            let scratch = try context.insertNewObject(forEntityNamed: "Note")
            context.delete(scratch)
            #expect(context.inserted.isEmpty && context.inserted.hasHeldObjects)
            try survivors[0].setValue("kept", forKey: "title")
            context.rollback()
        }
        #expect(survivors.count == 1)
        expectLeftClean(survivors[0])
    }
}
