import Foundation
import Testing
import KeyValueCoding
import KeyValueObserving
@testable import ManagedObjects

/// A new user's trial: typed observation of a non-optional attribute, first set. The old value
/// is what the object held before, as Apple's change record carries it: the model's default
/// value, or none (nil) for an attribute without one.
@Suite struct TypedOldValueTests {
    static func context() throws -> ManagedObjectContext {
        ManagedObjectContext(model: try TypedFixtures.model())
    }

    /// The old values of the first sets, typed and untyped: the default (12) for `capacity`;
    /// none for `name`, which has no default, although the non-optional property reads "".
    @Test func theFirstSetsOldValueIsTheDefaultOrNone() throws {
        let context = try Self.context()
        let stand = try #require(try context.insertNewObject(forEntityNamed: "Stand") as? TypedStand)
        let crate = try #require(try context.insertNewObject(forEntityNamed: "Crate") as? TypedCrate)
        #expect(stand.name == "" && crate.capacity == 12)
        var names: [[String?]] = []
        let typed = try stand.observe(\.name, options: [.old, .new]) { _, change in
            names.append([change.oldValue, change.newValue])
        }
        var untyped: [[String?]] = []
        let plain = try stand.observe("name", options: [.old, .new]) { _, change in
            untyped.append([change.oldValue as? String, change.newValue as? String])
        }
        var capacities: [[Int16?]] = []
        let typedCapacity = try crate.observe(\.capacity, options: [.old, .new]) { _, change in
            capacities.append([change.oldValue, change.newValue])
        }
        stand.name = "Corner"
        stand.name = "Market"
        crate.capacity = 30
        #expect(names == [[nil, "Corner"], ["Corner", "Market"]])
        #expect(untyped == names, "the typed record carries what the untyped one does")
        #expect(capacities == [[12, 30]])
        typed.invalidate()
        plain.invalidate()
        typedCapacity.invalidate()
    }

    /// A saved and refetched object's first change carries the stored value as old.
    @Test func aFetchedObjectsOldValueIsTheStoredOne() throws {
        let coordinator = PersistentStoreCoordinator(model: try TypedFixtures.model())
        try coordinator.addStore(InMemoryStore())
        let writer = ManagedObjectContext(coordinator: coordinator)
        let stand = try #require(try writer.insertNewObject(forEntityNamed: "Stand") as? TypedStand)
        stand.name = "Corner"
        try writer.save()
        let reader = ManagedObjectContext(coordinator: coordinator)
        let fetched = try #require(try reader.existingObject(with: stand.objectID) as? TypedStand)
        var names: [[String?]] = []
        let token = try fetched.observe(\.name, options: [.old, .new]) { _, change in names.append([change.oldValue, change.newValue]) }
        fetched.name = "Market"
        #expect(names == [["Corner", "Market"]])
        token.invalidate()
    }
}
