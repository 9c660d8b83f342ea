import Foundation
import Testing
@testable import ManagedObjects

@Suite struct ModelInCodeTests {
    static func theater() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Theater", properties: [
                .attribute(AttributeDescription(name: "name", type: .string, isOptional: false)),
                .relationship(RelationshipDescription(name: "movies", destination: "Movie", inverse: "theater",
                                                      cardinality: .toMany, deleteRule: .cascade)),
            ]),
            EntityDescription(name: "Movie", properties: [
                .attribute(AttributeDescription(name: "title", type: .string)),
                .relationship(RelationshipDescription(name: "theater", destination: "Theater", inverse: "movies")),
            ]),
        ])
    }

    @Test func resolvesRelationshipsBothWays() throws {
        let model = try Self.theater()
        let movies = try #require(model.entity(named: "Theater")?.relationshipsByName["movies"])
        #expect(model.destinationEntity(of: movies)?.name == "Movie")
        #expect(model.inverseRelationship(of: movies)?.name == "theater")
        #expect(movies.isToMany && !movies.isOrdered && movies.deleteRule == .cascade)
        #expect(model.warnings.isEmpty)
    }

    @Test func inheritedPropertiesAndSubentities() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Fruit", isAbstract: true, properties: [
                .attribute(AttributeDescription(name: "radius", type: .double, isOptional: false)),
            ]),
            EntityDescription(name: "Orange", parent: "Fruit"),
            EntityDescription(name: "Apple", parent: "Fruit", properties: [
                .attribute(AttributeDescription(name: "variety", type: .string)),
            ]),
        ])
        let apple = try #require(model.entity(named: "Apple"))
        #expect(apple.allProperties.map(\.name) == ["radius", "variety"])
        #expect(apple.properties.map(\.name) == ["variety"])
        #expect(model.entity(named: "Fruit")?.subentityNames == ["Apple", "Orange"])
        #expect(model.parentEntity(of: apple)?.name == "Fruit")
        #expect(model.entity(apple, isKindOf: try #require(model.entity(named: "Fruit"))))
    }

    @Test func badModelsThrowNamingTheCulprit() {
        #expect(throws: ManagedObjectModelError(.unknownDestinationEntity("Nope"), entity: "A", property: "r")) {
            try ManagedObjectModel(entities: [
                EntityDescription(name: "A", properties: [.relationship(RelationshipDescription(name: "r", destination: "Nope"))]),
            ])
        }
        #expect(throws: ManagedObjectModelError(.inheritanceCycle(["A", "B", "A"]), entity: "A")) {
            try ManagedObjectModel(entities: [EntityDescription(name: "A", parent: "B"), EntityDescription(name: "B", parent: "A")])
        }
        #expect(throws: ManagedObjectModelError(.duplicateProperty, entity: "B", property: "x")) {
            try ManagedObjectModel(entities: [
                EntityDescription(name: "A", properties: [.attribute(AttributeDescription(name: "x", type: .string))]),
                EntityDescription(name: "B", parent: "A", properties: [.attribute(AttributeDescription(name: "x", type: .string))]),
            ])
        }
    }

    /// An inheritance chain at the maximum depth (each entity the parent of the next, declared
    /// leaf first, the worst order for the ancestry walk) resolves, and a cycle at its far end
    /// is still found (deeper chains: InheritanceDepthTests).
    @Test func deepInheritanceChainsResolve() throws {
        let depth = ManagedObjectModel.maximumInheritanceDepth + 1
        var entities: [EntityDescription] = []
        for level in stride(from: depth - 1, through: 0, by: -1) {
            entities.append(EntityDescription(name: "E\(level)", parent: level == 0 ? nil : "E\(level - 1)",
                                              properties: [.attribute(AttributeDescription(name: "a\(level)", type: .integer64))]))
        }
        let model = try ManagedObjectModel(entities: entities)
        let leaf = try #require(model.entity(named: "E\(depth - 1)"))
        #expect(leaf.allProperties.count == depth)
        #expect(leaf.allProperties.first?.name == "a0")
        #expect(model.entity(named: "E0")?.subentityNames == ["E1"])

        entities[entities.count - 1] = EntityDescription(name: "E0", parent: "E\(depth - 1)")
        #expect(throws: ManagedObjectModelError.self) { try ManagedObjectModel(entities: entities) }
    }

    @Test func modelInUseRefusesChanges() throws {
        let model = try Self.theater()
        try model.addEntities([EntityDescription(name: "Seat")])
        #expect(model.entity(named: "Seat") != nil)
        model.markInUse()
        #expect(throws: ManagedObjectModelError(.modelInUse)) { try model.addEntities([EntityDescription(name: "Row")]) }
        #expect(model.entity(named: "Row") == nil)
    }
}

@Suite struct ModelShortFormTests {
    @Test func shortFormsBuildTheSameDescriptions() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Stand", properties: [
                .attribute("name", .string, isOptional: false, rules: [.minimumLength(1)]),
                .toMany("crates", "Crate", inverse: "stand", ordered: true, deleteRule: .cascade, maxCount: 10),
            ]),
            EntityDescription(name: "Crate", properties: [
                .attribute("capacity", .integer16, defaultValue: 12),
                .toOne("stand", "Stand", inverse: "crates"),
            ]),
        ])
        let stand = try #require(model.entity(named: "Stand"))
        var expected = AttributeDescription(name: "name", type: .string, isOptional: false)
        expected.validationRules = [.minimumLength(1)]
        #expect(stand.attributesByName["name"] == expected)
        let crates = try #require(stand.relationshipsByName["crates"])
        #expect(crates.isOrdered && crates.maxCount == 10 && crates.deleteRule == .cascade)
        #expect(model.entity(named: "Crate")?.attributesByName["capacity"]?.defaultValue == 12)
        #expect(model.inverseRelationship(of: crates)?.cardinality == .toOne)
    }
}

@Suite struct DescriptionPrintingTests {
    @Test func descriptionsPrintShort() throws {
        let model = try ModelInCodeTests.theater()
        let theater = try #require(model.entity(named: "Theater"))
        #expect(theater.description == "Theater { name: String; movies: → Movie (to-many, cascade, inverse theater) }")
        #expect(PropertyDescription.attribute("year", .integer16, defaultValue: 1999).description == "year: Integer 16? (default 1999)")
    }
}
