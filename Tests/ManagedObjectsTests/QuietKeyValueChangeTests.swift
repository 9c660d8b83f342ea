import Foundation
import Observation
import Testing
import KeyValueCoding
import KeyValueObserving
import UndoManagement
import TestSupport
@testable import ManagedObjects

/// `setValue(_:forKey:)` of an attribute when only the object's context listens takes a short
/// way (the context records the change directly instead of through the change seam). Every
/// rule of change tracking must hold whichever way a change takes: these tests run the same
/// steps on an object nobody observes (the short way) and on one that a key-value observer
/// watches (the full way), and check both against Core Data's documented behaviour.
@Suite struct QuietKeyValueChangeTests {
    static func model() -> ManagedObjectModel {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Record", properties: [
                .attribute("name", .string),
                .attribute("count", .integer64, defaultValue: 5),
                .attribute("score", .double),
                .attribute("note", .string, isTransient: true),
            ]),
        ])
    }

    /// A context on an in-memory store.
    static func context() throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: model())
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// Makes `object` take the full way: an observer of a key the steps never change.
    static func watch(_ object: ManagedObject, _ recorder: ChangeRecorder) throws {
        try object.addObserver(recorder, forKeyPath: "note", options: [.new])
    }

    /// What a test compares between the two ways.
    struct Snapshot: Equatable {
        var changed: [String: String]
        var changedThisEvent: [String: String]
        var committed: [String: String]
        var isInserted: Bool
        var isUpdated: Bool

        /// - Parameters:
        ///   - object: The object.
        ///   - committedKeys: The keys whose committed values to compare.
        init(_ object: ManagedObject, committedKeys: [String] = ["name", "count", "score"]) {
            func text(_ values: [String: Any?]) -> [String: String] {
                values.mapValues { $0.map { String(describing: $0) } ?? "nil" }
            }
            changed = text(object.changedValues())
            changedThisEvent = text(object.changedValuesForCurrentEvent())
            committed = text(object.committedValues(forKeys: committedKeys))
            isInserted = object.isInserted
            isUpdated = object.isUpdated
        }
    }

    /// Inserts a record, sets three keys by string key, and returns what the context says,
    /// with the batches of objects-did-change (inserted and updated counts).
    static func insertAndSet(watched: Bool) throws -> (Snapshot, [[Int]], Snapshot) {
        let context = try Self.context()
        var batches: [[Int]] = []
        let token = context.onObjectsDidChange { batches.append([$0.inserted.count, $0.updated.count]) }
        defer { token.cancel() }
        let recorder = ChangeRecorder()
        let record = try context.insertNewObject(forEntityNamed: "Record")
        if watched { try watch(record, recorder) }
        try record.setValue("alpha", forKey: "name")
        try record.setValue(Int64(7), forKey: "count")
        try record.setValue(2.5, forKey: "score")
        try record.setValue("beta", forKey: "name")   // a later store of the same key
        try record.setValue(nil, forKey: "score")     // and a nil one
        let inEvent = Snapshot(record)
        context.processPendingChanges()
        // A later event: the object was inserted in an earlier one, so this is an update of
        // this event (what a fetched results controller needs), still inserted for the save.
        try record.setValue(Int64(8), forKey: "count")
        let later = Snapshot(record)
        context.processPendingChanges()
        #expect(recorder.records.isEmpty, "the watched key never changed")
        return (inEvent, batches, later)
    }

    @Test func anInsertedObjectChangedByKey() throws {
        let (quiet, quietBatches, quietLater) = try Self.insertAndSet(watched: false)
        let (full, fullBatches, fullLater) = try Self.insertAndSet(watched: true)
        #expect(quiet == full && quietBatches == fullBatches && quietLater == fullLater)
        // Apple: an inserted object's changedValues() are its values that are not nil.
        #expect(quiet.changed == ["name": "beta", "count": "7"])
        #expect(quiet.isInserted && !quiet.isUpdated)
        // One event: the object inserted (not updated); the next event: updated.
        #expect(quietBatches == [[1, 0], [0, 1]])
        #expect(quietLater.changedThisEvent == ["count": "7"], "the value at the start of the later event")
        #expect(quietLater.changed["count"] == "8")
    }

    /// Saves a record, changes it by key, and returns snapshots before and after a rollback.
    static func saveThenChange(watched: Bool) throws -> (Snapshot, [[Int]], Snapshot, Any?) {
        let context = try Self.context()
        let record = try context.insertNewObject(forEntityNamed: "Record")
        try record.setValue("alpha", forKey: "name")
        try context.save()
        var batches: [[Int]] = []
        let token = context.onObjectsDidChange { batches.append([$0.inserted.count, $0.updated.count]) }
        defer { token.cancel() }
        let recorder = ChangeRecorder()
        if watched { try watch(record, recorder) }
        try record.setValue("beta", forKey: "name")
        try record.setValue("gamma", forKey: "name")
        try record.setValue(Int64(9), forKey: "count")
        let changed = Snapshot(record)
        context.processPendingChanges()
        context.rollback()
        let restored = try record.value(forKey: "name")
        return (changed, batches, Snapshot(record), restored)
    }

    @Test func aSavedObjectChangedByKey() throws {
        let (quiet, quietBatches, quietAfter, quietName) = try Self.saveThenChange(watched: false)
        let (full, fullBatches, fullAfter, fullName) = try Self.saveThenChange(watched: true)
        #expect(quiet == full && quietBatches == fullBatches && quietAfter == fullAfter)
        #expect(quiet.isUpdated && !quiet.isInserted)
        #expect(quiet.changed == ["name": "gamma", "count": "9"])
        #expect(quiet.changedThisEvent == ["name": "alpha", "count": "5"], "values at the event's start")
        #expect(quiet.committed["name"] == "alpha" && quiet.committed["count"] == "5")
        #expect(quietBatches.first == [0, 1], "the event reports the object updated")
        #expect(quietName as? String == "alpha" && fullName as? String == "alpha", "rollback restores the committed value")
        #expect(!quietAfter.isUpdated)
    }

    /// A typed store's first change of a slot takes the same short way.
    static func typedFirstStores(watched: Bool) throws -> ([String: String], [String: String], Bool, [[Int]], Int16) {
        let (context, crate) = try RepeatedTypedStoreTests.savedCrate()
        var batches: [[Int]] = []
        let token = context.onObjectsDidChange { batches.append([$0.inserted.count, $0.updated.count]) }
        defer { token.cancel() }
        let recorder = ChangeRecorder()
        if watched { try crate.addObserver(recorder, forKeyPath: "stand", options: [.new]) }
        crate.capacity = 20
        let changed = Snapshot(crate)
        context.processPendingChanges()
        crate.capacity = 30
        let later = Snapshot(crate)
        context.processPendingChanges()
        context.rollback()
        return (changed.changed, later.changedThisEvent, later.isUpdated, batches, crate.capacity)
    }

    @Test func aTypedFirstStore() throws {
        let quiet = try Self.typedFirstStores(watched: false)
        let full = try Self.typedFirstStores(watched: true)
        #expect(quiet.0 == full.0 && quiet.1 == full.1 && quiet.2 == full.2 && quiet.3 == full.3 && quiet.4 == full.4)
        #expect(quiet.0 == ["capacity": "20"])
        #expect(quiet.1 == ["capacity": "20"], "the value at the second event's start")
        #expect(quiet.2)
        // Each event reports the crate updated (the rollback's own notification follows).
        #expect(Array(quiet.3.prefix(2)) == [[0, 1], [0, 1]])
        #expect(quiet.4 == 12, "rollback restores the committed value")
    }

    @Test func savedValuesAreTheLastOnes() throws {
        let context = try Self.context()
        let record = try context.insertNewObject(forEntityNamed: "Record")
        try record.setValue("alpha", forKey: "name")
        try record.setValue("omega", forKey: "name")
        try context.save()
        try record.setValue(Int64(42), forKey: "count")
        try context.save()
        let other = ManagedObjectContext(coordinator: try #require(context.coordinator))
        let saved = try other.existingObject(with: record.objectID)
        #expect(try saved.value(forKey: "name") as? String == "omega")
        #expect(try saved.value(forKey: "count") as? Int64 == 42)
    }

    @Test func anObserverHearsEveryChange() throws {
        let context = try Self.context()
        let record = try context.insertNewObject(forEntityNamed: "Record")
        try record.setValue("alpha", forKey: "name")   // before any observer: the short way
        let recorder = ChangeRecorder()
        try record.addObserver(recorder, forKeyPath: "name", options: [.old, .new])
        try record.setValue("beta", forKey: "name")
        try record.setValue("gamma", forKey: "name")
        let changes = recorder.records.map { ($0.change.oldValue as? String, $0.change.newValue as? String) }
        #expect(changes.count == 2)
        #expect(changes.first?.0 == "alpha" && changes.first?.1 == "beta")
        #expect(changes.last?.0 == "beta" && changes.last?.1 == "gamma")
    }

    @Test func anUndoManagerRecordsEveryChange() throws {
        let context = try Self.context()
        let record = try context.insertNewObject(forEntityNamed: "Record")
        try record.setValue("alpha", forKey: "name")
        try context.save()
        context.undoManager = UndoHistory()
        try record.setValue("beta", forKey: "name")
        try record.setValue("gamma", forKey: "name")
        try context.undo()
        #expect(try record.value(forKey: "name") as? String == "alpha", "one event: undone as one step")
        try context.redo()
        #expect(try record.value(forKey: "name") as? String == "gamma")
    }

    @Test func observationTrackingFiresForAChangeByKey() throws {
        let model = TypedFixtures.unboundModel()
        try model.setManagedObjectClasses([TypedStand.self, TypedCrate.self, TypedFruit.self, TypedApple.self])
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let stand = try context.insertNewObject(TypedStand.self)
        try stand.setValue("North", forKey: "name")
        let fired = ChangeRecorder()
        withObservationTracking { _ = stand.name } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        try stand.setValue("South", forKey: "name")
        #expect(fired.records.count == 1)
        #expect(stand.name == "South")
    }

    @Test func aRelationshipByKeyStillKeepsItsInverse() throws {
        let model = TypedFixtures.unboundModel()
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        let crate = try context.insertNewObject(forEntityNamed: "Crate")
        try crate.setValue(stand, forKey: "stand")
        let crates = try stand.value(forKey: "crates") as? Set<ManagedObject>
        #expect(crates == [crate])
    }

    @Test func aValueOfTheWrongTypeIsRefusedAndNothingRecorded() throws {
        let context = try Self.context()
        let record = try context.insertNewObject(forEntityNamed: "Record")
        try context.save()
        #expect(throws: KeyValueCodingError.self) { try record.setValue("many", forKey: "count") }
        #expect(!record.isUpdated && record.changedValues().isEmpty)
        #expect(try record.value(forKey: "count") as? Int64 == 5)
    }

    // MARK: An object outside any context

    @Test func anObjectOutsideAContextStillNotifiesItsObservers() throws {
        let record = try ManagedObject(entityName: "Record", in: Self.model())
        try record.setValue("alpha", forKey: "name")   // nobody listens yet: only the store
        #expect(try record.value(forKey: "name") as? String == "alpha")
        let recorder = ChangeRecorder()
        try record.addObserver(recorder, forKeyPath: "name", options: [.old, .new, .prior])
        try record.setValue("beta", forKey: "name")
        let changes = recorder.records.map(\.change)
        #expect(changes.count == 2, "a prior and a final notification")
        #expect(changes.first?.isPrior == true && changes.first?.oldValue as? String == "alpha")
        #expect(changes.last?.oldValue as? String == "alpha" && changes.last?.newValue as? String == "beta")
        try record.removeObserver(recorder, forKeyPath: "name")
        try record.setValue("gamma", forKey: "name")   // the observer left: nothing more heard
        #expect(recorder.records.count == 2)
        #expect(try record.value(forKey: "name") as? String == "gamma")
    }

    @Test func aSubclassOutsideAContextStillHearsItsChangeHooks() throws {
        let model = Self.model()
        try model.setManagedObjectClasses([HookedRecord.self])
        let record = try HookedRecord(entityName: "Record", in: model)
        try record.setValue("alpha", forKey: "name")
        try record.setValue(Int64(7), forKey: "count")
        #expect(record.hooks == ["will name", "did name", "will count", "did count"])
    }

    @Test func anObjectOutsideAContextRefusesAValueOfTheWrongType() throws {
        let record = try ManagedObject(entityName: "Record", in: Self.model())
        #expect(throws: KeyValueCodingError.self) { try record.setValue("many", forKey: "count") }
        #expect(try record.value(forKey: "count") as? Int64 == 5)
        try record.setValue(nil, forKey: "count")
        #expect(try record.value(forKey: "count") == nil)
    }
}

/// A record class that overrides the change hooks (which a store outside a context must still
/// call for a subclass).
final class HookedRecord: ManagedObject {
    override class var entityName: String { "Record" }
    var hooks: [String] = []
    override func keyValueWillChange(_ event: KeyValueChangeEvent) {
        super.keyValueWillChange(event)
        hooks.append("will \(event.key)")
    }
    override func keyValueDidChange(_ event: KeyValueChangeEvent) {
        super.keyValueDidChange(event)
        hooks.append("did \(event.key)")
    }
}
