import Foundation
import Testing
import KeyValueCoding
import KeyValueObserving
@testable import ManagedObjects

/// The context's change sets and what objects say about them (`isInserted`, `isUpdated`,
/// `isDeleted`), through every way an object enters and leaves them, and objects' own
/// observation state.
@Suite struct ChangeSetMembershipTests {
    static var model: ManagedObjectModel { ManagedObjectKeyValueTests.model }

    static func stack() throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test func flagsFollowInsertSaveChangeDeleteAndRollback() throws {
        let context = try Self.stack()
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        #expect(stand.isInserted && !stand.isUpdated && !stand.isDeleted)
        try context.save()
        #expect(!stand.hasChanges && context.insertedObjects.isEmpty)
        try stand.setValue("Market", forKey: "name")
        #expect(stand.isUpdated && context.updatedObjects == [stand] && !stand.isInserted)
        context.delete(stand)
        #expect(stand.isDeleted && !stand.isUpdated && context.deletedObjects == [stand])
        context.rollback()
        #expect(!stand.hasChanges && !context.hasChanges)
        #expect(try stand.value(forKey: "name") as? String == "Corner")
        // Deleting an inserted object leaves no trace in any set.
        let crate = try context.insertNewObject(forEntityNamed: "Crate")
        context.delete(crate)
        #expect(!crate.isInserted && !crate.isDeleted && !context.hasChanges)
    }

    @Test func anObjectOfAGoneContextStartsCleanInTheNext() throws {
        let stand = try ManagedObject(entityName: "Stand", in: Self.model)
        do {
            let first = ManagedObjectContext(model: Self.model)
            try first.insert(stand)
            #expect(stand.isInserted)
        }
        let second = ManagedObjectContext(model: Self.model)
        try second.insert(stand)
        #expect(stand.isInserted && !stand.isDeleted && second.insertedObjects == [stand])
        second.delete(stand)
        #expect(!stand.isDeleted && second.deletedObjects.isEmpty, "an inserted object is dropped, not deleted")
    }

    @Test func resetAndMergeEmptyTheSets() throws {
        let context = try Self.stack()
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        context.reset()
        #expect(!context.hasChanges && !stand.isInserted)
        let other = try context.insertNewObject(forEntityNamed: "Stand")
        try other.setValue("Pier", forKey: "name")
        #expect(other.isInserted && context.insertedObjects == [other])
    }

    @Test func managedObjectsKeepTheirOwnObservationState() throws {
        let stand = try ManagedObject(entityName: "Stand", in: Self.model)
        // Made when first needed: an object nobody observes, outside a context, has none.
        #expect(stand.keyValueObservationStorage == nil)
        let context = ManagedObjectContext(model: Self.model)
        try context.insert(stand)
        var names: [String?] = []
        let observation = try stand.observe("name", options: [.new]) { _, change in
            names.append(change.newValue as? String)
        }
        let storage = try #require(stand.keyValueObservationStorage)
        #expect(stand.keyValueObservationStorage === storage, "the same state on every access")
        #expect(storage !== context.objectObservationStorage, "its own, not the one its context shares")
        // Observers and the context's change tracking both work through it.
        try stand.setValue("Corner", forKey: "name")
        #expect(names == ["Corner"])
        #expect(stand.changedValues()["name"] as? String == "Corner")
        observation.invalidate()
    }

    @Test func objectIDsOfOtherEntitiesOrStoresDiffer() {
        let a = ManagedObjectID(entityName: "Stand", storeIdentifier: "S1", primaryKey: 1)
        #expect(a == ManagedObjectID(entityName: "Stand", storeIdentifier: "S1", primaryKey: 1))
        #expect(a.hashValue == ManagedObjectID(entityName: "Stand", storeIdentifier: "S1", primaryKey: 1).hashValue)
        #expect(a != ManagedObjectID(entityName: "Crate", storeIdentifier: "S1", primaryKey: 1))
        #expect(a != ManagedObjectID(entityName: "Stand", storeIdentifier: "S2", primaryKey: 1))
        #expect(a != ManagedObjectID(entityName: "Stand", storeIdentifier: "S1", referenceObject: .string("1")))
        let ids: Set = [a, ManagedObjectID(entityName: "Crate", storeIdentifier: "S1", primaryKey: 1),
                        ManagedObjectID(entityName: "Stand", storeIdentifier: "S2", primaryKey: 1)]
        #expect(ids.count == 3)
    }
}
