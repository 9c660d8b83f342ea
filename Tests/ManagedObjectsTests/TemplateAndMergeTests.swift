import Foundation
import KeyValueCoding
import Predicates
import Testing
@testable import ManagedObjects

final class TemplateTheater: KeyValueCodable {
    var name = "Odeon"
}

@Suite struct TemplateAndMergeTests {
    static func catalog() throws -> ManagedObjectModel {
        var recent = FetchedPropertyDescription(
            name: "recentMovies",
            fetchRequest: EntityFetchRequest(entityName: "Movie", predicate: try KeyValuePredicate(
                format: "theaterName == $FETCH_SOURCE.name AND title BEGINSWITH $FETCHED_PROPERTY.userInfo.prefix")))
        recent.userInfo = ["prefix": "The"]
        return try ManagedObjectModel(
            entities: [
                EntityDescription(name: "Movie", properties: [
                    .attribute(AttributeDescription(name: "title", type: .string)),
                    .attribute(AttributeDescription(name: "year", type: .integer16)),
                    .attribute(AttributeDescription(name: "theaterName", type: .string)),
                ]),
                EntityDescription(name: "Theater", properties: [
                    .attribute(AttributeDescription(name: "name", type: .string)),
                    .fetchedProperty(recent),
                ]),
            ],
            configurations: ["Shows": ["Movie"]],
            fetchRequestTemplates: [
                "moviesAfter": EntityFetchRequest(entityName: "Movie", predicate: try KeyValuePredicate(format: "year > $YEAR")),
                "allMovies": EntityFetchRequest(entityName: "Movie"),
            ],
            versionIdentifiers: ["1.0"])
    }

    static func accounts() throws -> ManagedObjectModel {
        try ManagedObjectModel(
            entities: [
                EntityDescription(name: "Account", properties: [
                    .attribute(AttributeDescription(name: "email", type: .string)),
                    .relationship(RelationshipDescription(name: "owner", destination: "Person", inverse: "accounts")),
                ]),
                EntityDescription(name: "Person", properties: [
                    .relationship(RelationshipDescription(name: "accounts", destination: "Account", inverse: "owner",
                                                          cardinality: .toMany)),
                ]),
            ],
            configurations: ["Shows": ["Person"], "Private": ["Account", "Person"]],
            fetchRequestTemplates: ["byEmail": EntityFetchRequest(entityName: "Account",
                                                                 predicate: try KeyValuePredicate(format: "email == $EMAIL"))],
            versionIdentifiers: ["accounts-2"])
    }

    // MARK: Templates

    @Test func templateLookupReturnsItUnsubstituted() throws {
        let model = try Self.catalog()
        let template = try #require(model.fetchRequestTemplate(named: "moviesAfter"))
        #expect(template.entityName == "Movie")
        #expect(template.predicate?.predicateFormat == "year > $YEAR")
        #expect(model.fetchRequestTemplate(named: "nope") == nil)
    }

    @Test func substitutionVariablesAreReplaced() throws {
        let model = try Self.catalog()
        let request = try model.fetchRequest(fromTemplateNamed: "moviesAfter", substitutionVariables: ["YEAR": 1990])
        #expect(request.entityName == "Movie")
        #expect(request.predicate?.predicateFormat == "year > 1990")
        #expect(try request.predicate?.evaluate(with: ["year": 1995]) == true)
        #expect(try request.predicate?.evaluate(with: ["year": 1985]) == false)
        // The stored template is unchanged.
        #expect(model.fetchRequestTemplate(named: "moviesAfter")?.predicate?.predicateFormat == "year > $YEAR")
        // A template without variables needs none.
        #expect(try model.fetchRequest(fromTemplateNamed: "allMovies", substitutionVariables: [:]).predicate == nil)
    }

    @Test func unknownTemplateAndMissingVariable() throws {
        let model = try Self.catalog()
        let unknown = try #require(throws: ManagedObjectModelError.self) {
            try model.fetchRequest(fromTemplateNamed: "nope", substitutionVariables: [:])
        }
        #expect(unknown.code == .unknownTemplate("nope"))
        let missing = try #require(throws: ManagedObjectModelError.self) {
            try model.fetchRequest(fromTemplateNamed: "moviesAfter", substitutionVariables: ["OTHER": 1])
        }
        guard case .invalidPredicate(let message) = missing.code else { Issue.record("\(missing.code)"); return }
        #expect(message.contains("$YEAR"))
        #expect(missing.property == "fetch request template moviesAfter")
        #expect(missing.errorDescription?.contains("YEAR") == true)
    }

    @Test func fetchedPropertyBindsSourceAndProperty() throws {
        let model = try Self.catalog()
        let fetched = try #require(model.entity(named: "Theater")?.fetchedPropertiesByName["recentMovies"])
        let theater = TemplateTheater()
        let request = try fetched.fetchRequest(forSource: theater, entity: "Theater")
        #expect(request.entityName == "Movie")
        let predicate = try #require(request.predicate)
        #expect(try predicate.evaluate(with: ["theaterName": "Odeon", "title": "The Kid"]) == true)
        #expect(try predicate.evaluate(with: ["theaterName": "Odeon", "title": "Heat"]) == false)
        #expect(try predicate.evaluate(with: ["theaterName": "Rex", "title": "The Kid"]) == false)
        // The source is read when the predicate is evaluated.
        theater.name = "Rex"
        #expect(try predicate.evaluate(with: ["theaterName": "Rex", "title": "The Kid"]) == true)
    }

    @Test func fetchedPropertyWithAnUnboundVariable() throws {
        let fetched = FetchedPropertyDescription(
            name: "matching",
            fetchRequest: EntityFetchRequest(entityName: "Movie", predicate: try KeyValuePredicate(format: "title == $TITLE")))
        let error = try #require(throws: ManagedObjectModelError.self) { try fetched.fetchRequest(forSource: TemplateTheater()) }
        #expect(error.property == "matching")
        let bound = try fetched.fetchRequest(forSource: TemplateTheater(), substitutionVariables: ["TITLE": "Heat"])
        #expect(bound.predicate?.predicateFormat == #"title == "Heat""#)
    }

    // MARK: Configurations

    @Test func configurations() throws {
        let model = try Self.accounts()
        #expect(model.configurations == ["Private", "Shows"])
        #expect(model.entities(forConfiguration: "Private")?.map(\.name) == ["Account", "Person"])
        #expect(model.entities(forConfiguration: nil)?.count == 2)
        #expect(model.entities(forConfiguration: "Missing") == nil)
        try model.setEntities(["Account"], forConfiguration: "Cloud")
        #expect(model.entities(forConfiguration: "Cloud")?.map(\.name) == ["Account"])
        let error = try #require(throws: ManagedObjectModelError.self) {
            try model.setEntities(["Ghost"], forConfiguration: "Cloud")
        }
        #expect(error.code == .unknownEntity("Ghost"))
        #expect(model.entities(forConfiguration: "Cloud")?.map(\.name) == ["Account"])
        model.markInUse()
        #expect(throws: ManagedObjectModelError.self) { try model.setEntities(["Person"], forConfiguration: "Cloud") }
    }

    // MARK: Merging

    @Test func mergedModelIsTheUnion() throws {
        let accounts = try Self.accounts()
        accounts.markInUse()
        let merged = try ManagedObjectModel.mergedModel(from: [Self.catalog(), accounts])
        #expect(merged.entities.map(\.name) == ["Movie", "Theater", "Account", "Person"])
        #expect(Set(merged.fetchRequestTemplatesByName.keys) == ["moviesAfter", "allMovies", "byEmail"])
        #expect(merged.versionIdentifiers == ["1.0", "accounts-2"])
        #expect(merged.configurations == ["Private", "Shows"])
        #expect(merged.entities(forConfiguration: "Shows")?.map(\.name) == ["Movie", "Person"])
        #expect(merged.isEditable)
        let owner = try #require(merged.entity(named: "Account")?.relationshipsByName["owner"])
        #expect(merged.destinationEntity(of: owner)?.name == "Person")
        #expect(merged.inverseRelationship(of: owner)?.name == "accounts")
        let request = try merged.fetchRequest(fromTemplateNamed: "byEmail", substitutionVariables: ["EMAIL": "a@b"])
        #expect(request.entityName == "Account")
        #expect(try ManagedObjectModel.mergedModel(from: []).entities.isEmpty)
    }

    @Test func mergingKeepsHierarchiesAndWarnings() throws {
        let fruit = try ManagedObjectModel(entities: [
            EntityDescription(name: "Fruit", isAbstract: true, properties: [
                .attribute(AttributeDescription(name: "radius", type: .double)),
                .relationship(RelationshipDescription(name: "seeds", destination: "Fruit", cardinality: .toMany)),
            ]),
            EntityDescription(name: "Apple", parent: "Fruit"),
        ])
        fruit.appendLoadWarnings([ManagedObjectModelWarning("unknown element 'foo'", entity: "Fruit")])
        let merged = try ManagedObjectModel.mergedModel(from: [fruit, Self.accounts()])
        #expect(merged.entity(named: "Apple")?.allProperties.map(\.name) == ["radius", "seeds"])
        #expect(merged.entity(named: "Fruit")?.subentityNames == ["Apple"])
        #expect(merged.warnings.count == fruit.warnings.count)
        #expect(merged.warnings.contains { $0.message == "unknown element 'foo'" })
    }

    @Test func duplicateEntityNamesTheEntity() throws {
        let error = try #require(throws: ManagedObjectModelError.self) {
            try ManagedObjectModel.mergedModel(from: [Self.accounts(), Self.accounts()])
        }
        #expect(error.code == .duplicateEntity)
        #expect(error.entity == "Account")
        #expect(error.errorDescription?.contains("Account") == true)
    }

    @Test func duplicateTemplateIsAClearError() throws {
        let other = try ManagedObjectModel(entities: [EntityDescription(name: "Film")],
                                           fetchRequestTemplates: ["moviesAfter": EntityFetchRequest(entityName: "Film")])
        let error = try #require(throws: ManagedObjectModelError.self) {
            try ManagedObjectModel.mergedModel(from: [Self.catalog(), other])
        }
        #expect(error.code == .duplicateTemplate("moviesAfter"))
        #expect(error.errorDescription?.contains("moviesAfter") == true)
    }
}
