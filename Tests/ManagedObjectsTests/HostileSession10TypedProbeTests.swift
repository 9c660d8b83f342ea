import Foundation
import Observation
import Testing
import KeyValueCoding
import KeyValueObserving
@testable import ManagedObjects

// Classes of this file only: key-path names are cached per process, so each test probes key
// paths no other test names first.
final class H10FaultStand: ManagedObject {
    override class var entityName: String { "Stand" }
    @Managed var name: String
}

final class H10TrackedStand: ManagedObject {
    override class var entityName: String { "Stand" }
    @Managed var name: String
}

final class H10NestedCrate: ManagedObject {
    override class var entityName: String { "Crate" }
    @Managed var capacity: Int16
    @Managed var stand: H10NestedStand?
}

final class H10NestedStand: ManagedObject {
    override class var entityName: String { "Stand" }
    @Managed var name: String
    /// Two typed reads of the object: no one key.
    var nameAndName: String { name + name }
}

/// Hostile checks of the key-path probe's per-object flag (`isReadByKeyPathProbe`): a probe of
/// a fault, inside Observation tracking, inside another observer's callback, and key paths that
/// go through another object.
@Suite struct HostileSession10TypedProbeTests {
    @Test func probingAFaultNamesTheKeyAndLeavesNoFlag() throws {
        let model = TypedFixtures.unboundModel()
        try model.setManagedObjectClass(H10FaultStand.self, forEntityNamed: "Stand")
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        try context.save()
        let other = ManagedObjectContext(coordinator: coordinator)
        let fault = try #require(try other.existingObject(with: stand.objectID) as? H10FaultStand)
        other.refresh(fault, mergeChanges: false)
        #expect(fault.isFault)
        var names: [String] = []
        let token = try fault.observe(\.name, options: [.new]) { _, change in names.append(change.newValue ?? "?") }
        #expect(!fault.isReadByKeyPathProbe)
        fault.name = "Market"
        #expect(names == ["Market"])
        token.invalidate()
    }

    @Test func probingInsideObservationTrackingStillNamesTheKey() throws {
        let model = TypedFixtures.unboundModel()
        try model.setManagedObjectClass(H10TrackedStand.self, forEntityNamed: "Stand")
        let context = ManagedObjectContext(model: model)
        let stand = try #require(try context.insertNewObject(forEntityNamed: "Stand") as? H10TrackedStand)
        var token: KeyValueObservation?
        var names: [String] = []
        withObservationTracking {
            token = try? stand.observe(\.name, options: [.new]) { _, change in names.append(change.newValue ?? "?") }
        } onChange: {}
        #expect(token != nil)
        #expect(!stand.isReadByKeyPathProbe)
        stand.name = "Corner"
        #expect(names == ["Corner"])
        token?.invalidate()
    }

    @Test func probingInsideAnotherObserversCallback() throws {
        let model = TypedFixtures.unboundModel()
        try model.setManagedObjectClass(H10NestedStand.self, forEntityNamed: "Stand")
        try model.setManagedObjectClass(H10NestedCrate.self, forEntityNamed: "Crate")
        let context = ManagedObjectContext(model: model)
        let crate = try #require(try context.insertNewObject(forEntityNamed: "Crate") as? H10NestedCrate)
        let stand = try #require(try context.insertNewObject(forEntityNamed: "Stand") as? H10NestedStand)
        var inner: KeyValueObservation?
        var names: [String] = []
        var innerError: (any Error)?
        let outer = try crate.observe(\.capacity, options: [.new]) { _, _ in
            // A probe of another object while the crate's observers run.
            do {
                inner = try stand.observe(\.name, options: [.new]) { _, change in names.append(change.newValue ?? "?") }
            } catch { innerError = error }
        }
        crate.capacity = 3
        #expect(innerError == nil)
        #expect(!crate.isReadByKeyPathProbe && !stand.isReadByKeyPathProbe)
        stand.name = "Corner"
        #expect(names == ["Corner"])
        // A key path through the crate to its stand's name, and one reading two keys, throw
        // an error naming the key path (not a wrong key), and leave no flag behind.
        crate.stand = stand
        #expect(throws: KeyValueObservingError.self) { _ = try crate.observe(\.stand?.name) { _, _ in } }
        #expect(throws: KeyValueObservingError.self) { _ = try stand.observe(\.nameAndName) { _, _ in } }
        #expect(!crate.isReadByKeyPathProbe && !stand.isReadByKeyPathProbe)
        outer.invalidate()
        inner?.invalidate()
    }
}
