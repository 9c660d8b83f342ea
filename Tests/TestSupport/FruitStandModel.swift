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

    /// Inserts a stand "Corner" with two crates, apples 2.0, 2.4, 2.2 in crate "A" and oranges
    /// 2.6, 1.9 in crate "O", and saves.
    package static func stock(_ context: ManagedObjectContext) throws {
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        for (label, kind, radii) in [("A", "Apple", [2.0, 2.4, 2.2]), ("O", "Orange", [2.6, 1.9])] {
            let crate = try context.insertNewObject(forEntityNamed: "Crate")
            try crate.setValue(label, forKey: "label")
            try crate.setValue(stand, forKey: "stand")
            for radius in radii {
                let fruit = try context.insertNewObject(forEntityNamed: kind)
                try fruit.setValue(radius, forKey: "radius")
                try fruit.setValue(crate, forKey: "crate")
            }
        }
        try context.save()
    }
}
