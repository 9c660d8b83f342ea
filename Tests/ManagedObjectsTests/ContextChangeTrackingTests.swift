import Foundation
import Testing
import KeyValueCoding
import KeyValueObserving
import TestSupport
@testable import ManagedObjects

@Suite struct ContextChangeTrackingTests {
    static var model: ManagedObjectModel { ManagedObjectKeyValueTests.model }

    static func members(_ object: ManagedObject, _ key: String) throws -> Set<ObjectIdentifier> {
        Set(ManagedObjectContext.members(try object.value(forKey: key)).map(ObjectIdentifier.init))
    }

    @Test func insertingTracksNewObjects() throws {
        let context = ManagedObjectContext(model: Self.model)
        #expect(!context.hasChanges)
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        #expect(stand.isInserted && context.hasChanges && context.insertedObjects == [stand])
        #expect(stand.managedObjectContext === context)
        #expect(context.registeredObject(for: stand.objectID) === stand)
        try stand.setValue("Corner", forKey: "name")
        #expect(context.updatedObjects.isEmpty, "changes to a new object do not make it updated")
        #expect(stand.changedValues()["name"] as? String == "Corner")
        #expect(throws: ManagedObjectContextError.abstractEntity("Fruit")) { try context.insertNewObject(forEntityNamed: "Fruit") }
    }

    @Test func settingOneSideSetsTheInverse() throws {
        let context = ManagedObjectContext(model: Self.model)
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        let other = try context.insertNewObject(forEntityNamed: "Stand")
        let crate = try context.insertNewObject(forEntityNamed: "Crate")
        try crate.setValue(stand, forKey: "stand")
        #expect(try Self.members(stand, "crates") == [ObjectIdentifier(crate)])
        // Moving the crate to another stand takes it out of the first.
        try other.mutableSetValue(forKey: "crates").insert(AnyHashable(crate))
        #expect(try crate.value(forKey: "stand") as? ManagedObject === other)
        #expect(try Self.members(stand, "crates").isEmpty)
        // Ordered to-many: appending sets the inverse to-one.
        let apple = try context.insertNewObject(forEntityNamed: "Apple")
        try crate.mutableArrayValue(forKey: "fruit").append(apple)
        #expect(try apple.value(forKey: "crate") as? ManagedObject === crate)
        try apple.setValue(nil, forKey: "crate")
        #expect((try crate.value(forKey: "fruit") as? [ManagedObject])?.isEmpty == true)
    }

    @Test func observersOfTheInverseSeeMaintenance() throws {
        let context = ManagedObjectContext(model: Self.model)
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        let crate = try context.insertNewObject(forEntityNamed: "Crate")
        let recorder = ChangeRecorder()
        try stand.addObserver(recorder, forKeyPath: "crates", options: [.new])
        try crate.setValue(stand, forKey: "stand")
        #expect(recorder.count == 1)
        #expect(recorder.records.first?.change.kind == .insertion)
        try stand.removeObserver(recorder, forKeyPath: "crates")
    }

    @Test func deleteRulesCascadeAndNullify() throws {
        let context = ManagedObjectContext(model: Self.model)
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        let crate = try context.insertNewObject(forEntityNamed: "Crate")
        let apple = try context.insertNewObject(forEntityNamed: "Apple")
        try crate.setValue(stand, forKey: "stand")
        try apple.setValue(crate, forKey: "crate")
        context.commitChanges()
        // Stand → crates cascades; Crate → fruit nullifies (the apple stays, without a crate).
        context.delete(stand)
        #expect(context.deletedObjects == [stand, crate])
        #expect(apple.isUpdated && !apple.isDeleted)
        #expect(try apple.value(forKey: "crate") == nil)
    }

    @Test func rollbackRestoresEveryChange() throws {
        let context = ManagedObjectContext(model: Self.model)
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        let crate = try context.insertNewObject(forEntityNamed: "Crate")
        try crate.setValue(stand, forKey: "stand")
        context.commitChanges()
        #expect(!context.hasChanges)

        try stand.setValue("Market", forKey: "name")
        #expect(stand.isUpdated)
        #expect(stand.changedValues()["name"] as? String == "Market")
        #expect(stand.committedValues(forKeys: ["name"])["name"] as? String == "Corner")
        let newcomer = try context.insertNewObject(forEntityNamed: "Crate")
        try newcomer.setValue(stand, forKey: "stand")
        context.delete(crate)
        #expect(context.deletedObjects == [crate])

        let recorder = ChangeRecorder()
        try stand.addObserver(recorder, forKeyPath: "name", options: [.new])
        context.rollback()
        #expect(!context.hasChanges)
        #expect(try stand.value(forKey: "name") as? String == "Corner")
        #expect(recorder.records.last?.change.newValue as? String == "Corner")
        #expect(try Self.members(stand, "crates") == [ObjectIdentifier(crate)])
        #expect(try crate.value(forKey: "stand") as? ManagedObject === stand)
        #expect(newcomer.managedObjectContext == nil)
        try stand.removeObserver(recorder, forKeyPath: "name")
    }

    @Test func changedValuesIgnoreSettingBackTheCommittedValue() throws {
        let context = ManagedObjectContext(model: Self.model)
        let crate = try context.insertNewObject(forEntityNamed: "Crate")
        context.commitChanges()
        try crate.setValue(40, forKey: "capacity")
        try crate.setValue(12, forKey: "capacity")
        #expect(crate.changedValues().isEmpty)
        #expect(!crate.hasPersistentChangedValues)
    }

    @Test func aReleasedContextLeavesNoCycles() throws {
        let tracker = LifetimeTracker()
        do {
            let context = tracker.track(ManagedObjectContext(model: Self.model), "context")
            let stand = tracker.track(try context.insertNewObject(forEntityNamed: "Stand"), "stand")
            let crate = tracker.track(try context.insertNewObject(forEntityNamed: "Crate"), "crate")
            try crate.setValue(stand, forKey: "stand")
        }
        tracker.expectAllReleased()
    }
}

@Suite struct CurrentEventChangeTests {
    @Test func changedValuesForCurrentEventGiveTheOldValuesOfThisEventOnly() throws {
        let context = ManagedObjectContext(model: ManagedObjectKeyValueTests.model)
        let crate = try context.insertNewObject(forEntityNamed: "Crate")
        context.commitChanges()
        try crate.setValue(20, forKey: "capacity")
        #expect(crate.changedValuesForCurrentEvent()["capacity"] as? Int16 == 12)
        try crate.setValue(30, forKey: "capacity")
        #expect(crate.changedValuesForCurrentEvent()["capacity"] as? Int16 == 12, "the value at the start of the event")
        context.processPendingChanges()
        #expect(crate.changedValuesForCurrentEvent().isEmpty)
        try crate.setValue(40, forKey: "capacity")
        #expect(crate.changedValuesForCurrentEvent()["capacity"] as? Int16 == 30)
        #expect(crate.changedValues()["capacity"] as? Int16 == 40)
    }
}

@Suite struct DeletedNewObjectTests {
    @Test func aDeletedNewObjectWithRelatedObjectsLeavesEverySet() throws {
        let context = ManagedObjectContext(model: ManagedObjectKeyValueTests.model)
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        let crate = try context.insertNewObject(forEntityNamed: "Crate")
        try crate.setValue(stand, forKey: "stand")
        context.delete(stand)                       // cascades to the crate, which nullifies back
        #expect(context.insertedObjects.isEmpty && context.updatedObjects.isEmpty && context.deletedObjects.isEmpty)
        #expect(context.registeredObjects.isEmpty)
        #expect(try context.fetch(EntityFetchRequest(entityName: "Stand")).isEmpty)
        #expect(!context.hasChanges)
    }
}

@Suite struct SetProxySequenceTests {
    @Test func aToManyProxyTakesArraysOfObjects() throws {
        let context = ManagedObjectContext(model: ManagedObjectKeyValueTests.model)
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        let crates = try (0..<3).map { _ in try context.insertNewObject(forEntityNamed: "Crate") }
        try stand.mutableSetValue(forKey: "crates").union(crates)
        #expect(try crates.allSatisfy { try $0.value(forKey: "stand") as? ManagedObject === stand })
        try stand.mutableSetValue(forKey: "crates").subtract(crates.prefix(2))
        #expect(try (stand.value(forKey: "crates") as? Set<ManagedObject>) == [crates[2]])
        #expect(try crates[0].value(forKey: "stand") == nil)
    }
}
