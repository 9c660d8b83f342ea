// Docs/Predicates.md's examples, kept compiling and true (issue 11). Each example's code is
// copied as the guide writes it, with the `person` and `people` it takes from its surroundings
// declared first and expectations after. The guide imports `ObjectGraph`, which re-exports
// `Predicates` and `KeyValueCoding`, the modules this target tests.

import Foundation
import Testing
import KeyValueCoding
import Predicates

/// The people of the guide's examples.
private final class GuidePerson: KeyValueCodable {
    var name: String
    var lastName: String
    var age: Int
    var tags: [String] = []
    init(_ name: String, _ lastName: String, _ age: Int) {
        self.name = name
        self.lastName = lastName
        self.age = age
    }
}

@Suite("Predicate guide examples")
struct PredicateGuideExampleTests {
    private let person = GuidePerson("Ada", "Lovelace", 36)
    private let people = [GuidePerson("Ada", "Lovelace", 36), GuidePerson("alan", "Turing", 41),
                          GuidePerson("Grace", "Hopper", 17), GuidePerson("Anne", "Hopper", 52)]

    @Test func readingAndEvaluating() throws {
        let adults = try KeyValuePredicate(format: "age >= %d AND name BEGINSWITH[c] %@", 18, "a")
        let personMatches = try adults.evaluate(with: person)                       // a KeyValueCodable object
        let dictionaryMatches = try adults.evaluate(with: ["age": 20, "name": "Ada"])   // a dictionary
        let found = try people.filtered(using: adults)          // NSArray.filtered(using:)

        let template = try KeyValuePredicate(format: "age > $minimum")
        let templateMatches = try template.evaluate(with: person, substitutionVariables: ["minimum": 30])
        let bound = try template.withSubstitutionVariables(["minimum": 30])   // age > 30

        let format = adults.predicateFormat   // age >= 18 AND name BEGINSWITH[c] "a"

        #expect(personMatches && dictionaryMatches && templateMatches)
        #expect(found.map(\.name) == ["Ada", "alan", "Anne"])
        #expect(bound.predicateFormat == "age > 30")
        #expect(format == #"age >= 18 AND name BEGINSWITH[c] "a""#)
    }

    @Test func buildingInCode() throws {
        let p = KeyValuePredicate(.keyPath("age"), .greaterThan, 30)
            && KeyValuePredicate(.keyPath("name"), .beginsWith, .constant("a"), options: .caseInsensitive)
            || !KeyValuePredicate(.keyPath("tags"), .contains, .constant("x"), modifier: .direct)
        let total: KeyValueExpression = .keyPath("price") * 2 + 1
        let value = try KeyValueExpression(format: "4 + 5 - 2**3").expressionValue(with: nil)   // 1.0

        #expect(try p.evaluate(with: person))
        #expect(!total.description.isEmpty)
        #expect(value as? Double == 1.0)
    }

    @Test func sorting() throws {
        let sorted = try people.sorted(using: [
            KeyValueSortDescriptor(key: "lastName", comparison: .localizedStandardCompare),
            KeyValueSortDescriptor(key: "age", ascending: false),
        ])
        #expect(sorted.map(\.name) == ["Anne", "Grace", "Ada", "alan"])
    }
}
