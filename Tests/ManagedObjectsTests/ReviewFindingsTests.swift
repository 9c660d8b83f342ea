import Foundation
import Observation
import Predicates
import Testing
import KeyValueCoding
import KeyValueObserving
import TestSupport
@testable import ManagedObjects

/// A record whose (transient) `title` depends on `name` (`keyPathsForValuesAffectingValue(forKey:)`).
final class ReviewTitledRecord: ManagedObject {
    override class var entityName: String { "Titled" }
    override class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
        key == "title" ? ["name"] : super.keyPathsForValuesAffectingValue(forKey: key)
    }
}

/// Review of the session's fast paths (quiet changes by key, the Observation skip, packed
/// in-memory rows, shared cached rows) against Core Data's and KVO's documented rules.
@Suite(.serialized) struct ReviewFindingsTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Plain", properties: [
                .attribute("name", .string),
                .attribute("count", .integer64, defaultValue: 5),
                .attribute("ratio", .double),
            ]),
            EntityDescription(name: "Titled", properties: [
                .attribute("name", .string), .attribute("title", .string, isTransient: true),
            ]),
        ])
    }

    static func coordinator(_ model: ManagedObjectModel) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        return coordinator
    }

    // MARK: Quiet changes by key

    /// KVO: an observer of a key path through a to-one relationship (`stand.name` on a
    /// crate) hears a change of the related object's key, made by key on an object nobody
    /// observes directly.
    @Test func aKeyPathObserverThroughAToOneHearsAChangeByKey() throws {
        let context = ManagedObjectContext(coordinator: try Self.coordinator(TypedFixtures.unboundModel()))
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        let crate = try context.insertNewObject(forEntityNamed: "Crate")
        try stand.setValue("North", forKey: "name")
        try crate.setValue(stand, forKey: "stand")
        try context.save()
        let recorder = ChangeRecorder()
        try crate.addObserver(recorder, forKeyPath: "stand.name", options: [.old, .new])
        try stand.setValue("South", forKey: "name")
        try stand.setValue("East", forKey: "name")
        let changes = recorder.records.map { [$0.change.oldValue as? String, $0.change.newValue as? String] }
        #expect(changes == [["North", "South"], ["South", "East"]])
        #expect(stand.isUpdated && stand.changedValues()["name"] as? String == "East")
        try crate.removeObserver(recorder, forKeyPath: "stand.name")
    }

    /// KVO: an observer of a dependent key (`keyPathsForValuesAffectingValue(forKey:)`) is
    /// told of every change of a key it depends on, the first one included.
    @Test func aDependentKeyObserverHearsEveryChangeByKey() throws {
        let model = try Self.model()
        try model.setManagedObjectClass(ReviewTitledRecord.self, forEntityNamed: "Titled")
        let context = ManagedObjectContext(coordinator: try Self.coordinator(model))
        let record = try context.insertNewObject(forEntityNamed: "Titled")
        try context.save()
        let recorder = ChangeRecorder()
        try record.addObserver(recorder, forKeyPath: "title", options: [])
        try record.setValue("a", forKey: "name")
        try record.setValue("b", forKey: "name")
        #expect(recorder.records.count == 2)
        #expect(record.changedValues()["name"] as? String == "b")
        try record.removeObserver(recorder, forKeyPath: "title")
    }

    /// Core Data: `refresh(_:mergeChanges: false)` discards the changes (the object is no
    /// longer updated, its values are the store's); a later change is recorded afresh, with
    /// the store's value as the committed value.
    @Test func changesByKeyAfterARefreshAreRecordedAgain() throws {
        let context = ManagedObjectContext(coordinator: try Self.coordinator(try Self.model()))
        let record = try context.insertNewObject(forEntityNamed: "Plain")
        try record.setValue("saved", forKey: "name")
        try context.save()
        try record.setValue("first", forKey: "name")
        try record.setValue("second", forKey: "name")
        context.refresh(record, mergeChanges: false)
        #expect(!record.isUpdated && !context.hasChanges)
        #expect(try record.value(forKey: "name") as? String == "saved")
        try record.setValue("third", forKey: "name")
        try record.setValue("fourth", forKey: "name")
        #expect(record.isUpdated && context.hasChanges)
        #expect(record.changedValues().mapValues { $0 as? String } == ["name": "fourth"])
        #expect(record.committedValues(forKeys: ["name"])["name"] as? String == "saved")
        try context.save()
        let other = ManagedObjectContext(coordinator: try #require(context.coordinator))
        #expect(try other.existingObject(with: record.objectID).value(forKey: "name") as? String == "fourth")
    }

    /// Core Data: a change made while the context posts its objects-did-change notification
    /// belongs to the next event: the next `processPendingChanges()` reports it.
    @Test func aChangeByKeyInsideTheNotificationIsTheNextEvents() throws {
        let context = ManagedObjectContext(coordinator: try Self.coordinator(try Self.model()))
        let first = try context.insertNewObject(forEntityNamed: "Plain")
        let second = try context.insertNewObject(forEntityNamed: "Plain")
        try context.save()
        var updates: [Set<ManagedObjectID>] = []
        var changedInHandler = false
        let token = context.onObjectsDidChange { changes in
            updates.append(Set(changes.updated.map(\.objectID)))
            if !changedInHandler {
                changedInHandler = true
                try? second.setValue("from handler", forKey: "name")
                try? second.setValue("again", forKey: "name")
            }
        }
        defer { token.cancel() }
        try first.setValue("x", forKey: "name")
        context.processPendingChanges()
        context.processPendingChanges()
        #expect(updates == [[first.objectID], [second.objectID]])
        #expect(second.changedValues()["name"] as? String == "again")
    }

    // MARK: Observation

    /// Observation: tracking of one object's property fires for that object only, whichever
    /// object of the entity changes first, and nested tracking fires both handlers.
    @Test func nestedTrackingFiresForTheTrackedObjectOnly() throws {
        let context = ManagedObjectContext(coordinator: try Self.coordinator(try TypedFixtures.model()))
        let a = try context.insertNewObject(TypedCrate.self)
        let b = try context.insertNewObject(TypedCrate.self)
        try context.save()
        let outer = ChangeRecorder()
        let inner = ChangeRecorder()
        withObservationTracking {
            _ = a.capacity
            withObservationTracking { _ = b.capacity } onChange: { inner.record(KeyValueChange(kind: .setting)) }
        } onChange: { outer.record(KeyValueChange(kind: .setting)) }
        a.capacity = 1           // the outer tracking read a (and b, read inside it)
        #expect(outer.count == 1 && inner.count == 0)
        b.capacity = 2
        #expect(inner.count == 1)
        try a.setValue(Int16(3), forKey: "capacity")
        #expect(outer.count == 1, "one-shot")
    }

    // MARK: Packed in-memory rows and shared cached rows

    /// The in-memory store keeps what each save wrote: inserts, updates and deletes in turn,
    /// read back by another context through fetches with predicates and faults.
    @Test func inMemoryRowsFollowEverySave() throws {
        let coordinator = try Self.coordinator(try Self.model())
        let writer = ManagedObjectContext(coordinator: coordinator)
        var objects: [ManagedObject] = []
        for (name, count) in [("a", 1), ("b", 2), ("c", 3)] {
            let object = try writer.insertNewObject(forEntityNamed: "Plain")
            try object.setValue(name, forKey: "name")
            try object.setValue(Int64(count), forKey: "count")
            objects.append(object)
        }
        try writer.save()
        // A change after the save is the writer's own until saved.
        try objects[0].setValue("a, unsaved", forKey: "name")
        let reader = ManagedObjectContext(coordinator: coordinator)
        #expect(try reader.existingObject(with: objects[0].objectID).value(forKey: "name") as? String == "a")
        writer.rollback()
        try objects[1].setValue(Int64(20), forKey: "count")
        writer.delete(objects[2])
        try writer.save()
        let fresh = ManagedObjectContext(coordinator: coordinator)
        var request = EntityFetchRequest(entityName: "Plain")
        request.predicate = try KeyValuePredicate(format: "count >= 2")
        let found = try fresh.fetch(request)
        #expect(found.map(\.objectID) == [objects[1].objectID])
        #expect(try found.first?.value(forKey: "count") as? Int64 == 20)
        #expect(try fresh.count(for: EntityFetchRequest(entityName: "Plain")) == 2)
        // Values never set are nil to a predicate, as in a row written by name.
        var nilRatio = EntityFetchRequest(entityName: "Plain")
        nilRatio.predicate = try KeyValuePredicate(format: "ratio == nil AND name != nil")
        #expect(try fresh.count(for: nilRatio) == 2)
        // A new object after deletes and updates.
        let late = try writer.insertNewObject(forEntityNamed: "Plain")
        try late.setValue("d", forKey: "name")
        try writer.save()
        let names = try ManagedObjectContext(coordinator: coordinator).fetch(EntityFetchRequest(entityName: "Plain"))
            .compactMap { try $0.value(forKey: "name") as? String }
        #expect(Set(names) == ["a", "b", "d"])
    }

    /// Core Data: a context sees another context's saved change after refreshing its object;
    /// the other objects of the same fetch keep their (unchanged) values.
    @Test func aRefreshedObjectSeesAnotherContextsSave() throws {
        let coordinator = try Self.coordinator(try Self.model())
        let setup = ManagedObjectContext(coordinator: coordinator)
        for name in ["a", "b", "c"] { try setup.insertNewObject(forEntityNamed: "Plain").setValue(name, forKey: "name") }
        try setup.save()
        let first = ManagedObjectContext(coordinator: coordinator)
        var request = EntityFetchRequest(entityName: "Plain")
        request.sortDescriptors = [KeyValueSortDescriptor(key: "name", ascending: true)]
        let fetched = try first.fetch(request)
        #expect(try fetched.map { try $0.value(forKey: "name") as? String } == ["a", "b", "c"])
        let second = ManagedObjectContext(coordinator: coordinator)
        let b = try second.existingObject(with: fetched[1].objectID)
        try b.setValue("B", forKey: "name")
        try second.save()
        first.refresh(fetched[1], mergeChanges: false)
        #expect(try fetched[1].value(forKey: "name") as? String == "B")
        first.refreshAllObjects()
        #expect(try fetched.map { try $0.value(forKey: "name") as? String } == ["a", "B", "c"])
        first.reset()
        let again = try first.fetch(request)
        #expect(try again.map { try $0.value(forKey: "name") as? String } == ["B", "a", "c"].sorted())
    }

    /// Core Data: every object a fetch makes is an instance of its entity's class (here a
    /// bound subclass for Apple, the nearest bound ancestor's class for Orange), however the
    /// rows of the entities alternate in the answer; inserts alternating entities likewise.
    @Test func alternatingEntitiesGetTheirOwnClasses() throws {
        let coordinator = try Self.coordinator(try TypedFixtures.model())
        let writer = ManagedObjectContext(coordinator: coordinator)
        var made: [ManagedObject] = []
        for index in 0..<6 {
            let fruit = try writer.insertNewObject(forEntityNamed: index % 2 == 0 ? "Apple" : "Orange")
            try fruit.setValue(Double(index), forKey: "radius")
            made.append(fruit)
        }
        #expect(made.map { "\(type(of: $0))" } == ["TypedApple", "TypedFruit", "TypedApple", "TypedFruit", "TypedApple", "TypedFruit"])
        try writer.save()
        let reader = ManagedObjectContext(coordinator: coordinator)
        var request = EntityFetchRequest(entityName: "Fruit")
        request.sortDescriptors = [KeyValueSortDescriptor(key: "radius", ascending: true)]
        let fetched = try reader.fetch(request)
        #expect(fetched.map(\.entity.name) == ["Apple", "Orange", "Apple", "Orange", "Apple", "Orange"])
        #expect(fetched.map { "\(type(of: $0))" } == ["TypedApple", "TypedFruit", "TypedApple", "TypedFruit", "TypedApple", "TypedFruit"])
        #expect(try fetched.map { try $0.value(forKey: "radius") as? Double } == [0, 1, 2, 3, 4, 5])
    }

    /// An object that outlives its context (after quiet changes by key and typed stores):
    /// typed stores still set its values (in memory only); changes by key are refused, as no
    /// context would record them (trial13 T9).
    @Test func anObjectOutlivingItsContextAfterQuietChanges() throws {
        let coordinator = try Self.coordinator(try TypedFixtures.model())
        var crate: TypedCrate?
        do {
            let context = ManagedObjectContext(coordinator: coordinator)
            let made = try context.insertNewObject(TypedCrate.self)
            made.capacity = 1
            made.capacity = 2
            try made.setValue(Int16(3), forKey: "capacity")
            crate = made
        }
        let survivor = try #require(crate)
        #expect(survivor.managedObjectContext == nil)
        survivor.capacity = 4
        #expect(throws: ManagedObjectContextError.contextGone(survivor.objectID)) {
            try survivor.setValue(Int16(5), forKey: "capacity")
        }
        #expect(survivor.capacity == 4)
    }

    /// Core Data: `changedValues()` and `changedValuesForCurrentEvent()` report persistent
    /// properties only, "not changes to transient properties", whichever way the change took.
    @Test func changedValuesLeaveOutTransientAttributes() throws {
        let context = ManagedObjectContext(coordinator: try Self.coordinator(try Self.model()))
        let record = try context.insertNewObject(forEntityNamed: "Titled")
        try context.save()
        try record.setValue("t", forKey: "title")
        try record.setValue("n", forKey: "name")
        #expect(Set(record.changedValues().keys) == ["name"])
        #expect(Set(record.changedValuesForCurrentEvent().keys) == ["name"])
    }
}
