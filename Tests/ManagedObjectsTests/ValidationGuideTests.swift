import Foundation
import Testing
@testable import ManagedObjects

/// The examples of Docs/ManagedObjects.md, "Validation rules, value transformers, derived
/// attributes", as written there.
@Suite struct ValidationGuideTests {
    @Test func validationExample() throws {
        var year = AttributeDescription(name: "year", type: .integer16, isOptional: false)
        year.validationRules = [.minimumValue(1888), .maximumValue(2100)]
        try year.validate(1999)
        #expect(throws: ManagedObjectValidationError(.numberTooSmall, key: "year", value: 1700, reason: "at least 1888")) {
            try year.validate(1700)
        }
        #expect((try? year.validate(70_000)) == nil)
        for (value, code) in [(70_000 as Any, 1610), ("1999", 1550), (Optional<Int>.none as Any, 1570)] {
            do {
                try year.validate(value)
                Issue.record("\(value) passed")
            } catch {
                #expect(error.code.rawValue == code)
            }
        }
        var title = AttributeDescription(name: "title", type: .string, isOptional: false)
        title.validationRules = [.minimumLength(1)]
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Movie", properties: [.attribute(title), .attribute(year)]),
        ])
        let movie = try #require(model.entity(named: "Movie"))
        let error = try #require(throws: ManagedObjectValidationError.self) {
            try movie.validate(values: ["title": "", "year": 1700])
        }
        #expect(error.code == .multipleErrors)
        #expect(error.underlyingErrors.map(\.code.rawValue) == [1670, 1620])
        #expect(error.underlyingErrors.map(\.key) == ["title", "year"])
    }
}
