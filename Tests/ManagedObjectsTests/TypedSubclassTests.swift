import Foundation
import Observation
import Testing
import KeyValueCoding
import KeyValueObserving
import Predicates
import TestSupport
@testable import ManagedObjects

@Suite struct TypedSubclassTests {
    @Test func boundEntitiesMakeObjectsOfTheirClass() throws {
        let model = try TypedFixtures.model()
        #expect(model.managedObjectClass(forEntityNamed: "Apple") == TypedApple.self)
        // An entity without a class of its own takes its nearest bound ancestor's.
        #expect(model.managedObjectClass(forEntityNamed: "Orange") == TypedFruit.self)
        #expect(TypedFixtures.unboundModel().managedObjectClass(forEntityNamed: "Apple") == ManagedObject.self)
        let context = ManagedObjectContext(model: model)
        #expect(try context.insertNewObject(forEntityNamed: "Apple") is TypedApple)
        #expect(type(of: try context.insertNewObject(forEntityNamed: "Orange")) == TypedFruit.self)
        let crate: TypedCrate = try context.insertNewObject(TypedCrate.self)
        #expect(crate.isInserted && crate.entity.name == "Crate")
        let loose = try TypedStand(in: model)
        #expect(loose.managedObjectContext == nil && loose.entity.name == "Stand")
    }

    @Test func objectsOfABoundEntityMustBeOfItsClass() throws {
        let model = try TypedFixtures.model()
        let error = try #require(throws: ManagedObjectModelError.self) { try ManagedObject(entityName: "Apple", in: model) }
        #expect(error.entity == "Apple")
        guard case .classMismatch(let text) = error.code else { Issue.record("wrong code \(error.code)"); return }
        #expect(text.contains("TypedApple"))
        #expect(throws: ManagedObjectModelError.self) { try TypedCrate(entityName: "Stand", in: model) }
        // Unbound: only ManagedObject itself.
        #expect(throws: ManagedObjectModelError.self) { try TypedCrate(in: TypedFixtures.unboundModel()) }
    }

    @Test func typedValuesAndKeyValueCodingAgree() throws {
        let model = try TypedFixtures.model()
        let apple = try TypedApple(in: model)
        // A non-optional scalar reads a missing value as 0; key-value coding sees nil.
        #expect(apple.radius == 0)
        #expect(try apple.value(forKey: "radius") == nil)
        #expect(apple.variety == nil)
        apple.radius = 2.4
        apple.variety = "Gala"
        #expect(try apple.value(forKey: "radius") as? Double == 2.4)
        #expect(try apple.value(forKey: "variety") as? String == "Gala")
        #expect(apple.primitiveValue(forKey: "radius") as? Double == 2.4)
        try apple.setValue(3, forKey: "radius")
        try apple.setValue(nil, forKey: "variety")
        #expect(apple.radius == 3)
        #expect(apple.variety == nil)
        try apple.setPrimitiveValue(1.5, forKey: "radius")
        #expect(apple.radius == 1.5)
        // Defaults from the model reach the typed storage.
        let crate = try TypedCrate(in: model)
        #expect(crate.capacity == 12)
        #expect(try crate.value(forKey: "capacity") as? Int16 == 12)
        // Key paths and string keys see typed relationships.
        apple.crate = crate
        #expect(try apple.value(forKeyPath: "crate.capacity") as? Int16 == 12)
        #expect(try apple.value(forKey: "crate") as? ManagedObject === crate)
        #expect(apple.description.contains("radius: 1.5"))
    }

    @Test func typedStoresMaintainInverses() throws {
        let model = try TypedFixtures.model()
        let context = ManagedObjectContext(model: model)
        let stand = try context.insertNewObject(TypedStand.self)
        let crate = try context.insertNewObject(TypedCrate.self)
        let other = try context.insertNewObject(TypedCrate.self)
        let apple = try context.insertNewObject(TypedApple.self)
        let orange = try #require(try context.insertNewObject(forEntityNamed: "Orange") as? TypedFruit)
        apple.crate = crate
        #expect(crate.fruit.map(ObjectIdentifier.init) == [ObjectIdentifier(apple)])
        crate.fruit.append(orange)
        #expect(orange.crate === crate)
        // Moving the apple to another crate takes it out of the first.
        other.fruit = [apple]
        #expect(apple.crate === other)
        #expect(crate.fruit.map(ObjectIdentifier.init) == [ObjectIdentifier(orange)])
        crate.stand = stand
        #expect(stand.crates == [crate])
        stand.crates.insert(other)
        #expect(other.stand === stand)
        stand.crates = []
        #expect(crate.stand == nil && other.stand == nil)
        // Key-value coding on the other side reaches the typed storage too.
        try apple.setValue(nil, forKey: "crate")
        #expect(other.fruit.isEmpty)
    }

    @Test func changeTrackingSeesTypedStores() throws {
        let model = try TypedFixtures.model()
        let context = ManagedObjectContext(model: model)
        let stand = try context.insertNewObject(TypedStand.self)
        stand.name = "Corner"
        #expect(context.updatedObjects.isEmpty, "changes to a new object do not make it updated")
        #expect(stand.changedValues()["name"] as? String == "Corner")
        let crate = try context.insertNewObject(TypedCrate.self)
        crate.stand = stand
        context.commitChanges()
        stand.name = "Market"
        #expect(stand.isUpdated)
        #expect(stand.changedValues()["name"] as? String == "Market")
        #expect(stand.committedValues(forKeys: ["name"])["name"] as? String == "Corner")
        crate.capacity = 40
        crate.capacity = 12
        #expect(crate.changedValues().isEmpty, "setting back the committed value is no change")
    }

    @Test func rollbackRestoresTypedValues() throws {
        let model = try TypedFixtures.model()
        let context = ManagedObjectContext(model: model)
        let stand = try context.insertNewObject(TypedStand.self)
        stand.name = "Corner"
        let crate = try context.insertNewObject(TypedCrate.self)
        let apple = try context.insertNewObject(TypedApple.self)
        apple.radius = 2
        crate.stand = stand
        context.commitChanges()
        stand.name = "Market"
        apple.radius = 3.5
        apple.crate = crate
        let newcomer = try context.insertNewObject(TypedCrate.self)
        newcomer.stand = stand
        context.rollback()
        #expect(!context.hasChanges)
        #expect(stand.name == "Corner")
        #expect(apple.radius == 2)
        #expect(apple.crate == nil && crate.fruit.isEmpty)
        #expect(stand.crates == [crate])
        #expect(newcomer.managedObjectContext == nil)
    }

    @Test func deleteRulesReachTypedRelationships() throws {
        let model = try TypedFixtures.model()
        let context = ManagedObjectContext(model: model)
        let stand = try context.insertNewObject(TypedStand.self)
        let crate = try context.insertNewObject(TypedCrate.self)
        let apple = try context.insertNewObject(TypedApple.self)
        crate.stand = stand
        apple.crate = crate
        context.commitChanges()
        // Stand → crates cascades; Crate → fruit nullifies.
        context.delete(stand)
        #expect(context.deletedObjects == [stand, crate])
        #expect(apple.isUpdated && !apple.isDeleted)
        #expect(apple.crate == nil)
    }

    @Test func observersSeeTypedStores() throws {
        let model = try TypedFixtures.model()
        let apple = try TypedApple(in: model)
        apple.radius = 1
        let recorder = ChangeRecorder()
        try apple.addObserver(recorder, forKeyPath: "radius", options: [.old, .new])
        apple.radius = 2.5
        #expect(recorder.count == 1)
        #expect(recorder.records.first?.change.oldValue as? Double == 1)
        #expect(recorder.records.first?.change.newValue as? Double == 2.5)
        try apple.removeObserver(recorder, forKeyPath: "radius")
        // A key path through a typed relationship re-wires when the middle object changes.
        let chain = ChangeRecorder()
        let first = try TypedCrate(in: model), second = try TypedCrate(in: model)
        second.capacity = 30
        apple.crate = first
        try apple.addObserver(chain, forKeyPath: "crate.capacity", options: [.new])
        apple.crate = second
        second.capacity = 31
        #expect(chain.records.map { $0.change.newValue as? Int16 } == [30, 31])
        try apple.removeObserver(chain, forKeyPath: "crate.capacity")
    }

    @Test func observationTrackingSeesTypedReads() throws {
        let model = try TypedFixtures.model()
        let apple = try TypedApple(in: model)
        let fired = ChangeRecorder()
        withObservationTracking { _ = apple.radius } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        apple.variety = "Gala"
        #expect(fired.count == 0, "a property not read does not fire")
        apple.radius = 3
        #expect(fired.count == 1)
        apple.radius = 4   // tracking is one-shot
        #expect(fired.count == 1)
        // Changes through key-value coding and inverse maintenance fire too.
        let context = ManagedObjectContext(model: model)
        let crate = try context.insertNewObject(TypedCrate.self)
        let kept = try context.insertNewObject(TypedApple.self)
        withObservationTracking { _ = crate.fruit } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        kept.crate = crate
        #expect(fired.count == 2)
        withObservationTracking { _ = crate.capacity } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        try crate.setValue(20, forKey: "capacity")
        #expect(fired.count == 3)
    }

    @Test func aReleasedContextLeavesNoCycles() throws {
        let model = try TypedFixtures.model()
        let tracker = LifetimeTracker()
        do {
            let context = tracker.track(ManagedObjectContext(model: model), "context")
            let stand = tracker.track(try context.insertNewObject(TypedStand.self), "stand")
            let crate = tracker.track(try context.insertNewObject(TypedCrate.self), "crate")
            let apple = tracker.track(try context.insertNewObject(TypedApple.self), "apple")
            crate.stand = stand
            apple.crate = crate
            _ = apple.radius
        }
        tracker.expectAllReleased()
    }

    @Test func aTypedRelationshipHoldingAnotherClassStops() async {
        await #expect(processExitsWith: .failure) {
            let model = try TypedFixtures.model()
            let crate = try TypedCrate(in: model)
            // Key-value coding takes any managed object for a relationship; the typed read
            // then finds a TypedStand where it needs TypedFruits.
            try crate.setValue([try TypedStand(in: model)], forKey: "fruit")
            _ = crate.fruit
        }
    }

    @Test func keysNotNotifiedAutomaticallyStoreSilently() throws {
        let model = TypedFixtures.unboundModel()
        try model.setManagedObjectClass(ManualCrate.self, forEntityNamed: "Crate")
        let crate = try ManualCrate(in: model)
        let recorder = ChangeRecorder()
        try crate.addObserver(recorder, forKeyPath: "capacity", options: [.new])
        crate.capacity = 30
        #expect(recorder.count == 0)
        #expect(try crate.value(forKey: "capacity") as? Int16 == 30)
        crate.willChangeValue(forKey: "capacity")
        crate.capacity = 31
        crate.didChangeValue(forKey: "capacity")
        #expect(recorder.records.map { $0.change.newValue as? Int16 } == [31])
        try crate.removeObserver(recorder, forKeyPath: "capacity")
    }

    @Test func classesCanOptOutOfObservationTrackingOfReads() throws {
        let model = TypedFixtures.unboundModel()
        try model.setManagedObjectClass(UntrackedStand.self, forEntityNamed: "Stand")
        let stand = try UntrackedStand(in: model)
        let fired = ChangeRecorder()
        withObservationTracking { _ = stand.name } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        stand.name = "Corner"
        #expect(fired.count == 0)
        #expect(stand.name == "Corner")
    }
}

private final class ManualCrate: ManagedObject {
    override class var entityName: String { "Crate" }
    override class func automaticallyNotifiesObservers(forKey key: String) -> Bool { key != "capacity" }
    @Managed var capacity: Int16
}

@Suite struct TypedKeyPathObservationTests {
    @Test func observingATypedPropertyBySwiftKeyPathFindsItsKey() throws {
        let model = try TypedFixtures.model()
        let context = ManagedObjectContext(model: model)
        let crate = try context.insertNewObject(TypedCrate.self)
        var seen: [Int16] = []
        let token = try crate.observe(\.capacity, options: [.new]) { _, change in
            if let value = change.newValue { seen.append(value) }
        }
        crate.capacity = 30
        try crate.setValue(40, forKey: "capacity")
        #expect(seen == [30, 40])
        let apple = try context.insertNewObject(TypedApple.self)
        var varieties: [String?] = []
        let inherited = try apple.observe(\.radius, options: [.new]) { _, change in varieties.append("\(change.newValue ?? 0)") }
        apple.radius = 2.5
        #expect(varieties == ["2.5"])
        token.invalidate()
        inherited.invalidate()
    }
}

@Suite struct TypedFetchTests {
    @Test func fetchingAsABoundClass() throws {
        let model = try TypedFixtures.model()
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let apple = try context.insertNewObject(TypedApple.self)
        apple.radius = 2.5
        try context.save()
        let fresh = ManagedObjectContext(coordinator: coordinator)
        var request = TypedFruit.fetchRequest()
        request.predicate = try KeyValuePredicate(format: "radius > 2")
        let fruit = try fresh.fetch(request, as: TypedFruit.self)
        #expect(fruit.count == 1 && fruit.first is TypedApple && fruit.first?.radius == 2.5)
        #expect(throws: ManagedObjectModelError.self) { try fresh.fetch(request, as: TypedCrate.self) }
    }
}
