import Foundation
import Predicates
import Testing
@testable import ManagedObjects

@Suite struct EntityValidationTests {
    typealias Code = ManagedObjectValidationError.Code

    static func relationship(_ cardinality: RelationshipDescription.Cardinality = .toMany, optional: Bool = true,
                             min: Int = 0, max: Int = 0) -> RelationshipDescription {
        var r = RelationshipDescription(name: "items", destination: "Item", cardinality: cardinality,
                                        isOptional: optional)
        r.minCount = min
        if cardinality != .toOne { r.maxCount = max }
        return r
    }

    static func code(_ body: () throws(ManagedObjectValidationError) -> Void) -> Code? {
        do { try body(); return nil } catch { return error.code }
    }

    @Test func relationshipCounts() {
        let r = Self.relationship(min: 2, max: 3)
        #expect(Self.code { () throws(ManagedObjectValidationError) in try r.validate(count: 1) } == .relationshipLacksMinimumCount)
        #expect(Self.code { () throws(ManagedObjectValidationError) in try r.validate(count: 4) } == .relationshipExceedsMaximumCount)
        #expect(Self.code { () throws(ManagedObjectValidationError) in try r.validate(count: 2) } == nil)
        // An empty optional relationship is valid whatever its minimum.
        #expect(Self.code { () throws(ManagedObjectValidationError) in try r.validate(count: 0) } == nil)
        #expect(Self.code { () throws(ManagedObjectValidationError) in try r.validate([1, 2, 3, 4] as [Int]) } == .relationshipExceedsMaximumCount)
        #expect(Self.code { () throws(ManagedObjectValidationError) in try r.validate(Set([1])) } == .relationshipLacksMinimumCount)
        #expect(Self.code { () throws(ManagedObjectValidationError) in try r.validate(NSOrderedSet(array: [1, 2])) } == nil)
    }

    @Test func mandatoryRelationships() {
        let toOne = Self.relationship(.toOne, optional: false)
        #expect(Self.code { () throws(ManagedObjectValidationError) in try toOne.validate(nil) } == .missingMandatoryProperty)
        #expect(Self.code { () throws(ManagedObjectValidationError) in try toOne.validate(NSObject()) } == nil)
        let toMany = Self.relationship(optional: false, min: 1)
        #expect(Self.code { () throws(ManagedObjectValidationError) in try toMany.validate([Int]()) } == .relationshipLacksMinimumCount)
        do {
            try toOne.validate(nil, entity: "Showing")
        } catch {
            #expect(error.value == Optional<KeyValueConstant>.none)
            #expect(error.entity == "Showing" && error.key == "items")
        }
        let plain = Self.relationship(optional: false)
        #expect(Self.code { () throws(ManagedObjectValidationError) in try plain.validate(count: 0) } == .missingMandatoryProperty)
    }

    @Test func denyDeleteRule() {
        var r = Self.relationship()
        r.deleteRule = .deny
        #expect(Self.code { () throws(ManagedObjectValidationError) in try r.validateForDelete(relatedCount: 2, entity: "Stand") } == .relationshipDeniedDelete)
        #expect(Self.code { () throws(ManagedObjectValidationError) in try r.validateForDelete(relatedCount: 0) } == nil)
        r.deleteRule = .cascade
        #expect(Self.code { () throws(ManagedObjectValidationError) in try r.validateForDelete(relatedCount: 2) } == nil)
    }

    static func model() throws -> ManagedObjectModel {
        var title = AttributeDescription(name: "title", type: .string, isOptional: false)
        title.validationRules = [.minimumLength(1)]
        var year = AttributeDescription(name: "year", type: .integer16)
        year.validationRules = [.minimumValue(1888)]
        var showings = RelationshipDescription(name: "showings", destination: "Showing", inverse: "work",
                                               cardinality: .toMany)
        showings.maxCount = 2
        return try ManagedObjectModel(entities: [
            EntityDescription(name: "Work", isAbstract: true, properties: [.attribute(title), .relationship(showings)]),
            EntityDescription(name: "Movie", parent: "Work", properties: [.attribute(year)]),
            EntityDescription(name: "Showing", properties: [
                .relationship(RelationshipDescription(name: "work", destination: "Work", inverse: "showings",
                                                      isOptional: false)),
            ]),
        ])
    }

    @Test func wholeObjectIncludingInheritedProperties() throws {
        let movie = try #require(try Self.model().entity(named: "Movie"))
        try movie.validate(values: ["title": "Metropolis", "year": 1927])
        let error = try #require(throws: ManagedObjectValidationError.self) {
            try movie.validate(values: ["year": 1700, "showings": [1, 2, 3]])
        }
        #expect(error.code == .multipleErrors)
        #expect(error.entity == "Movie")
        #expect(error.underlyingErrors.map(\.code) == [.missingMandatoryProperty, .relationshipExceedsMaximumCount, .numberTooSmall])
        #expect(error.underlyingErrors.map(\.key) == ["title", "showings", "year"])
        #expect(error.underlyingErrors.allSatisfy { $0.entity == "Movie" })
    }

    @Test func singleFailureIsNotWrapped() throws {
        let movie = try #require(try Self.model().entity(named: "Movie"))
        let error = try #require(throws: ManagedObjectValidationError.self) { try movie.validate(values: ["title": ""]) }
        #expect(error.code == .stringTooShort)
        #expect(error.key == "title")
    }

    @Test func unknownKeyIsReported() throws {
        let showing = try #require(try Self.model().entity(named: "Showing"))
        let errors = showing.validationErrors(forValues: ["work": NSObject(), "price": 3])
        #expect(errors.map(\.code) == [.managedObjectValidation])
        #expect(errors.first?.key == "price")
    }

    @Test func uniquenessConstraints() throws {
        var entity = EntityDescription(name: "Person", properties: [
            .attribute(AttributeDescription(name: "email", type: .string)),
            .attribute(AttributeDescription(name: "first", type: .string)),
            .attribute(AttributeDescription(name: "last", type: .string)),
        ])
        entity.uniquenessConstraints = [["email"], ["first", "last"]]
        try entity.validateUniqueness(of: [["email": "a@x", "first": "A", "last": "B"],
                                           ["email": "b@x", "first": "A", "last": "C"]])
        let error = try #require(throws: ManagedObjectValidationError.self) {
            try entity.validateUniqueness(of: [["email": "a@x", "first": "A", "last": "B"],
                                               ["email": "a@x", "first": "A", "last": "B"]])
        }
        #expect(error.code == .multipleErrors)
        #expect(error.underlyingErrors.map(\.code) == [.constraintValidation, .constraintValidation])
        #expect(error.underlyingErrors.map(\.key) == ["email", "first,last"])
        #expect(ManagedObjectValidationError.Code.constraintValidation.rawValue == 1551)
    }
}
