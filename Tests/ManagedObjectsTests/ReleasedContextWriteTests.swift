import Foundation
import KeyValueCoding
import Testing
import TestSupport
@testable import ManagedObjects

/// Writes to an object whose context was released that do not go through
/// `setValue(_:forKey:)` (session 14): key paths, the protocol's generic way, mutable
/// collection proxies (refused with `contextGone`, as `setValue(_:forKey:)` is), and typed
/// relationship stores (which cannot throw: they change nothing).
@Suite struct ReleasedContextWriteTests {
    typealias Orphans = (stand: TypedStand, crate: TypedCrate, apple: TypedApple)

    static func orphans() throws -> Orphans { try ContextLifetimeTests.orphans() }

    /// `body`'s error is `contextGone` naming `object`.
    static func refused(_ object: ManagedObject, _ body: () throws -> Void) {
        #expect(throws: ManagedObjectContextError.contextGone(object.objectID)) { try body() }
    }

    @Test func keyPathWritesAreRefused() throws {
        let (stand, crate, apple) = try Self.orphans()
        Self.refused(apple) { try apple.setValue(7.0, forKeyPath: "radius") }
        Self.refused(apple) { try KeyValue.setValue(nil, forKeyPath: "variety", of: apple) }
        Self.refused(crate) { try crate.setValue(stand, forKeyPath: "stand") }
        Self.refused(stand) { try stand.setValue("Elsewhere", forKeyPath: "name") }
        #expect(apple.radius == 3 && stand.name == "Corner")
        #expect(crate.stand == nil && crate.hasFault(forRelationshipNamed: "stand"), "the cut relationship stays cut")
        // A path through a cut relationship reaches nothing (it reads as nil): nothing is set.
        let capacity = crate.capacity
        try apple.setValue(capacity + 1, forKeyPath: "crate.capacity")
        #expect(crate.capacity == capacity)
    }

    @Test func writesThroughTheProtocolAreRefused() throws {
        let (stand, _, apple) = try Self.orphans()
        func set(_ value: Any?, _ key: String, on object: some KeyValueCodable) throws {
            try object.setValue(value, forKey: key)
        }
        Self.refused(apple) { try set(8.0, "radius", on: apple) }
        Self.refused(stand) { try set(nil, "name", on: stand) }
        #expect(apple.radius == 3 && stand.name == "Corner")
    }

    @Test func mutableCollectionProxiesAreRefused() throws {
        let (stand, crate, apple) = try Self.orphans()
        Self.refused(stand) { try stand.mutableSetValue(forKey: "crates").insert(AnyHashable(crate)) }
        Self.refused(stand) { try stand.mutableSetValue(forKey: "crates").removeAll() }
        Self.refused(crate) { try crate.mutableArrayValue(forKey: "fruit").append(apple) }
        #expect(stand.crates.isEmpty && crate.fruit.isEmpty && apple.crate == nil)
        #expect(stand.hasFault(forRelationshipNamed: "crates") && crate.hasFault(forRelationshipNamed: "fruit"))
    }

    @Test func typedRelationshipStoresChangeNothing() throws {
        let (stand, crate, apple) = try Self.orphans()
        apple.crate = crate
        crate.stand = stand
        crate.fruit = [apple]
        stand.crates = [crate]
        #expect(apple.crate == nil && crate.stand == nil && crate.fruit.isEmpty && stand.crates.isEmpty)
        for (object, key) in [(apple, "crate"), (crate, "stand"), (crate, "fruit"), (stand, "crates")] as [(ManagedObject, String)] {
            #expect(object.hasFault(forRelationshipNamed: key), "\(key) stays a fault that cannot fire")
        }
        // Typed attribute stores still change the value in memory only (documented).
        apple.radius = 4
        #expect(apple.radius == 4 && !apple.hasChanges)
    }

    @Test func typedRelationshipStoresChangeNothingWhenNothingWasCut() throws {
        // A context whose objects never held a related object does not visit them as it goes:
        // their relationships were not cut, and are still refused.
        let model = try TypedFixtures.model()
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        var apple: TypedApple?
        var crate: TypedCrate?
        do {
            let context = ManagedObjectContext(coordinator: coordinator)
            apple = try context.insertNewObject(forEntityNamed: "Apple") as? TypedApple
            apple?.radius = 1
            crate = try context.insertNewObject(forEntityNamed: "Crate") as? TypedCrate
            try context.save()
        }
        let orphan = try #require(apple), other = try #require(crate)
        #expect(orphan.managedObjectContext == nil)
        orphan.crate = other
        other.fruit = [orphan]
        #expect(orphan.crate == nil && other.fruit.isEmpty)
        Self.refused(orphan) { try orphan.setValue(other, forKeyPath: "crate") }
    }

    @Test func objectsOutsideAnyContextStillTakeEveryKindOfWrite() throws {
        let model = try TypedFixtures.model()
        let apple = try TypedApple(entityName: "Apple", in: model)
        let crate = try TypedCrate(entityName: "Crate", in: model)
        try apple.setValue(2.5, forKeyPath: "radius")
        apple.crate = crate
        try crate.mutableArrayValue(forKey: "fruit").append(apple)
        #expect(apple.radius == 2.5 && apple.crate === crate && crate.fruit.count == 1)
    }
}
