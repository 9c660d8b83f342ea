// The fruit-stand model shared by the managed-object and store tests.
import ManagedObjects

/// The fruit stand of the worked example: a stand with crates (cascade), crates with
/// fruit (cascade), Fruit abstract with Apple and Orange subentities. A new model each call
/// (a coordinator freezes the model it uses).
package enum FruitStandModel {
    package static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Stand", properties: [
                .attribute("name", .string, isOptional: false),
                .toMany("crates", "Crate", inverse: "stand", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Crate", properties: [
                .attribute("label", .string),
                .toOne("stand", "Stand", inverse: "crates"),
                .toMany("fruit", "Fruit", inverse: "crate", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Fruit", isAbstract: true, properties: [
                .attribute("radius", .double, isOptional: false),
                .toOne("crate", "Crate", inverse: "fruit"),
            ]),
            EntityDescription(name: "Apple", parent: "Fruit"),
            EntityDescription(name: "Orange", parent: "Fruit"),
        ])
    }
}
