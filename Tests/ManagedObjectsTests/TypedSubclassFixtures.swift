import Foundation
@testable import ManagedObjects

// Typed subclasses of the fruit-stand model (the entities of ManagedObjectKeyValueTests).

final class TypedStand: ManagedObject {
    override class var entityName: String { "Stand" }
    @Managed var name: String
    @Managed var crates: Set<TypedCrate>
}

/// A stand whose class does not report typed reads to Observation.
final class UntrackedStand: ManagedObject {
    override class var entityName: String { "Stand" }
    override class var isObservationTrackingEnabled: Bool { false }
    @Managed var name: String
}

final class TypedCrate: ManagedObject {
    override class var entityName: String { "Crate" }
    @Managed var capacity: Int16
    @Managed var stand: TypedStand?
    @Managed var fruit: [TypedFruit]
}

class TypedFruit: ManagedObject {
    override class var entityName: String { "Fruit" }
    @Managed var radius: Double
    @Managed var crate: TypedCrate?
}

final class TypedApple: TypedFruit {
    override class var entityName: String { "Apple" }
    @Managed var variety: String?
}

enum TypedFixtures {
    /// A fresh fruit-stand model (bindings change a model, so every test makes its own).
    static func unboundModel(extra: [PropertyDescription] = []) -> ManagedObjectModel {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Stand", properties: [
                .attribute("name", .string, isOptional: false),
                .toMany("crates", "Crate", inverse: "stand", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Crate", properties: [
                .attribute("capacity", .integer16, defaultValue: 12),
                .toOne("stand", "Stand", inverse: "crates"),
                .toMany("fruit", "Fruit", inverse: "crate", ordered: true),
            ] + extra),
            EntityDescription(name: "Fruit", isAbstract: true, properties: [
                .attribute("radius", .double, isOptional: false),
                .toOne("crate", "Crate", inverse: "fruit"),
            ]),
            EntityDescription(name: "Apple", parent: "Fruit", properties: [.attribute("variety", .string)]),
            EntityDescription(name: "Orange", parent: "Fruit", properties: []),
        ])
    }

    /// The model with every typed class bound.
    static func model() throws -> ManagedObjectModel {
        let model = unboundModel()
        try model.setManagedObjectClasses([TypedStand.self, TypedCrate.self, TypedFruit.self, TypedApple.self])
        return model
    }
}
