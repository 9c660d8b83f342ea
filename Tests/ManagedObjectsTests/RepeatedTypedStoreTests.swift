import Foundation
import Observation
import Testing
import KeyValueCoding
import KeyValueObserving
import UndoManagement
import TestSupport
@testable import ManagedObjects

/// A typed store into a slot already changed in the current event skips the change seam's
/// listeners (a quiet store). Every rule of change tracking must still hold for the second and
/// later stores: these tests change a slot once, then again, and check what Core Data's
/// documented behaviour says about the later stores.
@Suite struct RepeatedTypedStoreTests {
    /// A context on an in-memory store with one saved crate (capacity 12) and its context.
    static func savedCrate() throws -> (ManagedObjectContext, TypedCrate) {
        let coordinator = PersistentStoreCoordinator(model: try TypedFixtures.model())
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let crate = try context.insertNewObject(TypedCrate.self)
        crate.capacity = 12
        try context.save()
        return (context, crate)
    }

    @Test func laterStoresKeepTheFirstCommittedValue() throws {
        let (context, crate) = try Self.savedCrate()
        crate.capacity = 20
        crate.capacity = 30
        crate.capacity = 40
        #expect(crate.isUpdated && context.updatedObjects == [crate])
        #expect(crate.changedValues()["capacity"] as? Int16 == 40)
        #expect(crate.committedValues(forKeys: ["capacity"])["capacity"] as? Int16 == 12)
        #expect(crate.hasPersistentChangedValues)
        crate.capacity = 12
        #expect(!crate.hasPersistentChangedValues, "back to the committed value: no persistent change")
        crate.capacity = 50
        context.rollback()
        #expect(crate.capacity == 12 && !crate.isUpdated)
    }

    @Test func eachEventReportsTheObjectAndItsStartValue() throws {
        let (context, crate) = try Self.savedCrate()
        var batches: [ManagedObjectContext.Changes] = []
        let token = context.onObjectsDidChange { batches.append($0) }
        crate.capacity = 20
        crate.capacity = 21
        #expect(crate.changedValuesForCurrentEvent()["capacity"] as? Int16 == 12)
        context.processPendingChanges()
        #expect(batches.count == 1 && batches[0].updated == [crate])
        crate.capacity = 30
        crate.capacity = 31
        #expect(crate.changedValuesForCurrentEvent()["capacity"] as? Int16 == 21, "the value at the new event's start")
        context.processPendingChanges()
        #expect(batches.count == 2 && batches[1].updated == [crate], "a later event reports the object again")
        token.cancel()
    }

    @Test func storesAfterASaveAreChangesAgain() throws {
        let (context, crate) = try Self.savedCrate()
        crate.capacity = 20
        crate.capacity = 21
        try context.save()
        #expect(!crate.isUpdated)
        crate.capacity = 22
        crate.capacity = 23
        #expect(crate.isUpdated && context.hasChanges)
        #expect(crate.committedValues(forKeys: ["capacity"])["capacity"] as? Int16 == 21)
        try context.save()
        let other = ManagedObjectContext(coordinator: try #require(context.coordinator))
        let saved = try #require(try other.existingObject(with: crate.objectID) as? TypedCrate)
        #expect(saved.capacity == 23)
    }

    @Test func anObserverAddedLaterHearsEveryStore() throws {
        let (_, crate) = try Self.savedCrate()
        crate.capacity = 20
        crate.capacity = 21
        var seen: [Int16?] = []
        let token = try crate.observe(\.capacity, options: [.old, .new]) { _, change in seen.append(change.newValue) }
        crate.capacity = 22
        crate.capacity = 23
        #expect(seen == [22, 23])
        token.invalidate()
    }

    @Test func observationTrackingSeesRepeatedStores() throws {
        let (_, crate) = try Self.savedCrate()
        crate.capacity = 20
        crate.capacity = 21
        let fired = ChangeRecorder()
        withObservationTracking { _ = crate.capacity } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        crate.capacity = 22
        #expect(fired.count == 1)
    }

    @Test func anUndoManagerAttachedLaterRecordsEveryStore() throws {
        let (context, crate) = try Self.savedCrate()
        crate.capacity = 20
        crate.capacity = 21
        context.processPendingChanges()
        let history = UndoHistory()
        context.undoManager = history
        crate.capacity = 30
        crate.capacity = 31
        context.processPendingChanges()
        try context.undo()
        #expect(crate.capacity == 21, "one event, one undo step, back to its start")
        try context.redo()
        #expect(crate.capacity == 31)
    }

    @Test func aStoreAfterADeleteOrARefreshIsTrackedAgain() throws {
        let (context, crate) = try Self.savedCrate()
        crate.capacity = 20
        crate.capacity = 21
        context.refresh(crate, mergeChanges: false)
        #expect(crate.isFault && !crate.isUpdated)
        crate.capacity = 22
        #expect(!crate.isFault && crate.isUpdated)
        #expect(crate.committedValues(forKeys: ["capacity"])["capacity"] as? Int16 == 12)
        crate.capacity = 23
        context.delete(crate)
        crate.capacity = 24
        #expect(crate.isDeleted && !crate.isUpdated)
        try context.insert(crate)   // undoes the delete: a changed object again
        crate.capacity = 25
        #expect(crate.isUpdated && crate.changedValues()["capacity"] as? Int16 == 25)
    }

    @Test func theObjectsHooksHearEveryStore() throws {
        let model = TypedFixtures.unboundModel()
        try model.setManagedObjectClass(HookedCrate.self, forEntityNamed: "Crate")
        let context = ManagedObjectContext(model: model)
        let crate = try context.insertNewObject(HookedCrate.self)
        crate.heard = []
        crate.capacity = 20
        crate.capacity = 21
        crate.capacity = 22
        #expect(crate.heard == ["will capacity", "did capacity", "will capacity", "did capacity", "will capacity", "did capacity"])
    }

    @Test func anObjectThatLeftItsContextIsNotTracked() throws {
        let (context, crate) = try Self.savedCrate()
        crate.capacity = 20
        crate.capacity = 21
        context.reset()
        crate.capacity = 22
        #expect(crate.managedObjectContext == nil && context.updatedObjects.isEmpty && !context.hasChanges)
    }
}

/// A crate whose class overrides the change hooks.
final class HookedCrate: ManagedObject {
    override class var entityName: String { "Crate" }
    @Managed var capacity: Int16
    var heard: [String] = []

    override func keyValueWillChange(_ event: KeyValueChangeEvent) {
        heard.append("will \(event.key)")
        super.keyValueWillChange(event)
    }

    override func keyValueDidChange(_ event: KeyValueChangeEvent) {
        heard.append("did \(event.key)")
        super.keyValueDidChange(event)
    }
}
