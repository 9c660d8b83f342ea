import Foundation
import Testing
@testable import ManagedObjects

// Classes that do not fit the fruit-stand model.

private final class CrateWithDoubleCapacity: ManagedObject {
    @Managed var capacity: Double
}

private final class CrateWithUnknownKey: ManagedObject {
    @Managed var label: String?
}

private final class CrateWithSetOfFruit: ManagedObject {
    @Managed var fruit: Set<TypedFruit>
}

private final class StandWithOptionalName: ManagedObject {
    @Managed var name: String?
}

private final class AppleWithNonOptionalVariety: ManagedObject {
    @Managed var variety: String
}

private final class CrateWithAttributeAsRelationship: ManagedObject {
    @Managed var capacity: TypedStand?
}

private final class CrateWithStandArray: ManagedObject {
    @Managed var stand: [TypedStand]
}

private final class PlainSubclass: ManagedObject {}

private final class OtherStand: ManagedObject {
    override class var entityName: String { "Stand" }
}

@Suite struct TypedBindingTests {
    static func bindingError(_ objectClass: ManagedObject.Type, _ entity: String,
                             in model: ManagedObjectModel = TypedFixtures.unboundModel()) throws -> (ManagedObjectModelError, String) {
        let error = try #require(throws: ManagedObjectModelError.self) {
            try model.setManagedObjectClass(objectClass, forEntityNamed: entity)
        }
        guard case .classMismatch(let text) = error.code else {
            Issue.record("expected classMismatch, got \(error.code)")
            return (error, "")
        }
        return (error, text)
    }

    @Test(arguments: [
        (CrateWithDoubleCapacity.self as ManagedObject.Type, "Crate", "capacity", "Double"),
        (CrateWithUnknownKey.self, "Crate", "label", "Optional<String>"),
        (CrateWithSetOfFruit.self, "Crate", "fruit", "Set<TypedFruit>"),
        (AppleWithNonOptionalVariety.self, "Apple", "variety", "String"),
        (CrateWithAttributeAsRelationship.self, "Crate", "capacity", "Optional<TypedStand>"),
        (CrateWithStandArray.self, "Crate", "stand", "Array<TypedStand>"),
    ])
    func mismatchesAreThrownAtBinding(objectClass: ManagedObject.Type, entity: String, property: String, swiftType: String) throws {
        let model = TypedFixtures.unboundModel()
        let (error, text) = try Self.bindingError(objectClass, entity, in: model)
        #expect(error.entity == entity)
        #expect(error.property == property)
        #expect(text.contains(swiftType), "\(text)")
        #expect(text.contains(String(describing: objectClass)), "\(text)")
        #expect(error.errorDescription?.contains(entity) == true)
        // The model is unchanged.
        #expect(model.managedObjectClass(forEntityNamed: entity) == ManagedObject.self)
    }

    @Test func optionalSwiftTypesFitNonOptionalAttributes() throws {
        // `String?` fits the non-optional attribute "name" (a new object has no name yet).
        let model = TypedFixtures.unboundModel()
        try model.setManagedObjectClass(StandWithOptionalName.self, forEntityNamed: "Stand")
        #expect(model.managedObjectClass(forEntityNamed: "Stand") == StandWithOptionalName.self)
    }

    @Test func relationshipDestinationsMustBeBoundToTheTypedClass() throws {
        // TypedCrate's relationships name TypedStand and TypedFruit, which are not bound yet.
        let (error, text) = try Self.bindingError(TypedCrate.self, "Crate")
        #expect(error.property == "fruit" || error.property == "stand")
        #expect(text.contains("ManagedObject") && text.contains("together"))
        // A subentity bound to a class outside the hierarchy breaks the typed relationship.
        let model = TypedFixtures.unboundModel()
        try model.setManagedObjectClasses([TypedStand.self, TypedCrate.self, TypedFruit.self])
        let broken = try #require(throws: ManagedObjectModelError.self) {
            try model.setManagedObjectClass(PlainSubclass.self, forEntityNamed: "Apple")
        }
        #expect(broken.entity == "Apple")
        #expect(model.managedObjectClass(forEntityNamed: "Apple") == TypedFruit.self)
    }

    @Test func twoClassesForOneEntityAreRefused() throws {
        let model = TypedFixtures.unboundModel()
        let error = try #require(throws: ManagedObjectModelError.self) {
            try model.setManagedObjectClasses([TypedStand.self, TypedCrate.self, TypedFruit.self, TypedApple.self, OtherStand.self])
        }
        #expect(error.entity == "Stand")
        #expect(model.managedObjectClass(forEntityNamed: "Crate") == ManagedObject.self)
    }

    @Test func unknownEntitiesAndModelsInUseAreRefused() throws {
        let model = TypedFixtures.unboundModel()
        #expect(throws: ManagedObjectModelError(.unknownEntity("Pear"))) {
            try model.setManagedObjectClass(PlainSubclass.self, forEntityNamed: "Pear")
        }
        model.markInUse()
        #expect(throws: ManagedObjectModelError(.modelInUse)) {
            try model.setManagedObjectClasses([TypedStand.self, TypedCrate.self, TypedFruit.self])
        }
    }

    @Test func bindingManagedObjectRemovesABinding() throws {
        let model = try TypedFixtures.model()
        try model.setManagedObjectClasses([TypedStand.self, TypedCrate.self, TypedFruit.self, TypedApple.self])
        // Unbinding Crate would leave TypedStand.crates and TypedFruit.crate without TypedCrates.
        #expect(throws: ManagedObjectModelError.self) {
            try model.setManagedObjectClass(ManagedObject.self, forEntityNamed: "Crate")
        }
        #expect(model.managedObjectClass(forEntityNamed: "Crate") == TypedCrate.self)
    }
}

@Suite struct TypedBindingAfterModelChangesTests {
    @Test func replacingEntitiesRechecksBoundClasses() throws {
        let model = try TypedFixtures.model()
        // Crate's capacity becomes a Double: TypedCrate's `Int16` no longer fits.
        var entities = model.entities.map(\.declared)
        let index = try #require(entities.firstIndex { $0.name == "Crate" })
        entities[index] = EntityDescription(name: "Crate", properties: [
            .attribute("capacity", .double),
            .toOne("stand", "Stand", inverse: "crates"),
            .toMany("fruit", "Fruit", inverse: "crate", ordered: true),
        ])
        let error = try #require(throws: ManagedObjectModelError.self) { try model.setEntities(entities) }
        #expect(error.entity == "Crate" && error.property == "capacity")
        #expect(model.entity(named: "Crate")?.attributesByName["capacity"]?.attributeType == .integer16)
    }
}
