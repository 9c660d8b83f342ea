import Foundation
import Testing
@testable import ManagedObjects

/// A class bound to the fixture's "Stand" entity only by some tests.
private final class LateBoundStand: ManagedObject {
    override class var entityName: String { "Stand" }
}

/// What making an object settles: its entity, its (temporary) ID, and the class check that a
/// model's creations remember until the model changes.
@Suite struct ObjectCreationTests {
    @Test func entityIsTheModelsEntity() throws {
        let model = TypedFixtures.unboundModel()
        let object = try ManagedObject(entityName: "Crate", in: model)
        let declared = try #require(model.entity(named: "Crate"))
        #expect(object.entity.name == "Crate")
        #expect(object.entity.allProperties.map(\.name) == declared.allProperties.map(\.name))
        #expect(object.entity.parentName == declared.parentName)
    }

    @Test func newObjectHasOneStableTemporaryID() throws {
        let model = TypedFixtures.unboundModel()
        let first = try ManagedObject(entityName: "Stand", in: model)
        let second = try ManagedObject(entityName: "Stand", in: model)
        #expect(first.objectID.isTemporaryID)
        #expect(first.objectID.entityName == "Stand")
        #expect(first.objectID == first.objectID)
        #expect(first.objectID != second.objectID)
    }

    @Test func insertedObjectKeepsItsTemporaryIDUntilSaved() throws {
        let model = TypedFixtures.unboundModel()
        let context = ManagedObjectContext(model: model)
        let object = try context.insertNewObject(forEntityNamed: "Stand")
        let id = object.objectID
        #expect(id.isTemporaryID)
        #expect(context.registeredObject(for: id) === object)
    }

    @Test func classCheckFollowsBindingsChangedAfterCreations() throws {
        let model = TypedFixtures.unboundModel()
        // Unbound: the entity's objects are plain managed objects.
        let refused = try #require(throws: ManagedObjectModelError.self) { try LateBoundStand(entityName: "Stand", in: model) }
        guard case .classMismatch = refused.code else { Issue.record("expected classMismatch, got \(refused.code)"); return }
        // Twice: the second creation finds the layout the model remembered last.
        _ = try ManagedObject(entityName: "Stand", in: model)
        _ = try ManagedObject(entityName: "Stand", in: model)
        try model.setManagedObjectClass(LateBoundStand.self, forEntityNamed: "Stand")
        // Bound now: an earlier creation's check must not let plain objects through.
        let stale = try #require(throws: ManagedObjectModelError.self) { try ManagedObject(entityName: "Stand", in: model) }
        guard case .classMismatch = stale.code else { Issue.record("expected classMismatch, got \(stale.code)"); return }
        let bound = try LateBoundStand(entityName: "Stand", in: model)
        #expect(bound.entity.name == "Stand")
    }

    @Test func unknownEntityIsNamed() throws {
        let model = TypedFixtures.unboundModel()
        _ = try ManagedObject(entityName: "Stand", in: model)
        let error = try #require(throws: ManagedObjectModelError.self) { try ManagedObject(entityName: "Kiosk", in: model) }
        guard case .unknownEntity(let name) = error.code else { Issue.record("expected unknownEntity, got \(error.code)"); return }
        #expect(name == "Kiosk")
    }
}
