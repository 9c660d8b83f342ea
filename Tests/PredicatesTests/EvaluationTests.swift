import Foundation
import KeyValueCoding
import Testing
@testable import Predicates

@Suite("Evaluation")
struct EvaluationTests {
    let engineering = TestDepartment(name: "Engineering", budget: 10)
    var ada: TestPerson {
        TestPerson("Ada", age: 36, department: engineering,
                   children: [TestPerson("Byron", age: 9), TestPerson("Anne", age: 12, nickname: "Annie")],
                   tags: ["math", "poetry"])
    }

    @Test func comparisonsOnObjects() throws {
        let person = ada
        #expect(try holds("age == 36", person))
        #expect(try holds("age = 36.0", person))
        #expect(try holds("age != 35", person))
        #expect(try holds("age < 40 AND age <= 36 AND age > 30 AND age >= 36", person))
        #expect(try !holds("age > 36", person))
        #expect(try holds("department.name == 'Engineering'", person))
        #expect(try holds("name == %@ AND %K == %d", person, "Ada", "age", 36))
        #expect(try holds("active == YES AND active == 1 AND active != NO", person))
    }

    @Test func numbersCompareAcrossTypes() throws {
        let values: [String: Any] = ["i": 3, "d": 3.0, "dec": Decimal(3), "b": true, "u": UInt8(3), "n": NSNumber(value: 3)]
        #expect(try holds("i == d AND d == dec AND dec == u AND u == n AND i == n", values))
        #expect(try holds("b == 1 AND b == TRUE AND i > b", values))
        #expect(try holds("d < 3.5 AND dec < 3.5 AND i BETWEEN {2.5, 3}", values))
        #expect(try !holds("i == '3'", values))
        #expect(throws: PredicateEvaluationError.self) { try holds("i < '3'", values) }
    }

    @Test func nilRules() throws {
        let values: [String: Any] = ["name": "x", "null": NSNull()]
        #expect(try holds("missing == nil", values))
        #expect(try holds("null == nil AND null == missing", values))
        #expect(try holds("name != nil", values))
        #expect(try !holds("name == nil", values))
        #expect(try holds("missing != 'x'", values))
        #expect(try !holds("missing == 'x'", values))
        #expect(try !holds("missing < 5", values))
        #expect(try !holds("missing > 5", values))
        #expect(try !holds("missing BEGINSWITH 'x'", values))
        #expect(try !holds("missing CONTAINS 'x'", values))
        #expect(try !holds("'x' IN missing", values))
        #expect(try holds("nickname == nil", TestPerson("A", age: 1)))
        #expect(try holds("department.name == nil", TestPerson("A", age: 1)))
        #expect(throws: KeyValueCodingError.self) { try holds("noSuchKey == 1", TestPerson("A", age: 1)) }
    }

    @Test(arguments: [
        ("name BEGINSWITH 'Ad'", true), ("name BEGINSWITH 'ad'", false), ("name BEGINSWITH[c] 'ad'", true),
        ("name ENDSWITH 'da'", true), ("name ENDSWITH[c] 'DA'", true), ("name CONTAINS 'd'", true),
        ("name CONTAINS[c] 'D'", true), ("name CONTAINS ''", false), ("name ==[c] 'ADA'", true),
        ("name LIKE 'A*'", true), ("name LIKE 'A?a'", true), ("name LIKE 'a*'", false), ("name LIKE[c] 'a*'", true),
        ("name LIKE '*d*'", true), ("name LIKE 'A.*'", false), ("name LIKE 'Ad'", false), ("name LIKE '*'", true),
        ("name MATCHES 'A.a'", true), ("name MATCHES 'A'", false), ("name MATCHES '[A-Z][a-z]+'", true),
        ("name MATCHES[c] 'ada'", true), ("name IN 'Adam'", true), ("'d' IN name", true),
    ])
    func stringOperators(format: String, expected: Bool) throws {
        #expect(try holds(format, ["name": "Ada"]) == expected)
    }

    @Test func diacriticAndUnicodeFolding() throws {
        let values: [String: Any] = ["city": "Zürich", "word": "straße", "cafe": "Cafe\u{301}"]
        #expect(try holds("city ==[d] 'Zurich'", values))
        #expect(try !holds("city == 'Zurich'", values))
        #expect(try holds("city BEGINSWITH[cd] 'zu'", values))
        #expect(try holds("word ==[c] 'STRASSE'", values))
        #expect(try holds("cafe == 'Café'", values))        // canonical equivalence
        #expect(try holds("cafe ==[n] 'Café'", values))
        #expect(try holds("cafe LIKE[cd] 'cafe'", values))
        #expect(try holds("city MATCHES[d] 'Zurich'", values))
        #expect(try holds("city > 'Zz' AND city < 'Zürichs'", values))
    }

    @Test func inAndContainsOverCollections() throws {
        let values: [String: Any] = ["tag": "b", "tags": ["a", "b"], "set": Set([1, 2]), "map": ["k": "v"], "n": 2]
        #expect(try holds("tag IN {'a', 'b'}", values))
        #expect(try holds("tag IN[c] {'A', 'B'}", values))
        #expect(try holds("tag IN tags AND tags CONTAINS 'a'", values))
        #expect(try holds("n IN set AND set CONTAINS 1", values))
        #expect(try holds("'v' IN map", values))
        #expect(try !holds("'k' IN map", values))
        #expect(try holds("tag IN %@", values, ["x", "b"]))
        #expect(try holds("n IN %@", values, Set([2])))
        #expect(throws: PredicateEvaluationError.self) { try holds("tag IN n", values) }
    }

    @Test func betweenIsInclusive() throws {
        #expect(try holds("n BETWEEN {1, 3}", ["n": 1]))
        #expect(try holds("n BETWEEN {1, 3}", ["n": 3]))
        #expect(try !holds("n BETWEEN {1, 3}", ["n": 3.5]))
        #expect(try holds("n BETWEEN %@", ["n": 2], [1, 3]))
        #expect(try holds("d BETWEEN {CAST(0, 'NSDate'), CAST(100, 'NSDate')}", ["d": Date(timeIntervalSinceReferenceDate: 50)]))
        #expect(throws: PredicateEvaluationError.self) { try holds("n BETWEEN {1}", ["n": 1]) }
    }

    @Test func datesCompare() throws {
        let now = Date()
        #expect(try holds("d < %@ AND d <= %@ AND d == %@", ["d": now], now.addingTimeInterval(1), now, now))
        #expect(try holds("d > CAST(0, 'NSDate')", ["d": now]))
    }

    @Test func toManyKeyPathsWithQualifiers() throws {
        let person = ada
        #expect(try holds("ANY children.age > 10", person))
        #expect(try !holds("ALL children.age > 10", person))
        #expect(try holds("ALL children.age < 20", person))
        #expect(try holds("NONE children.age > 20", person))
        #expect(try !holds("NONE children.age > 10", person))
        #expect(try holds("SOME tags == 'math'", person))
        #expect(try holds("ANY children.nickname == nil", person))
        #expect(try holds("ALL tags BEGINSWITH[c] '' OR TRUEPREDICATE", person))
        #expect(try holds("children.@count == 2", person))
        #expect(try holds("children.@sum.age == 21", person))
        #expect(try holds("children.@avg.age == 10.5 AND children.@max.age == 12", person))
        #expect(try holds("'Anne' IN children.name", person))
        #expect(try holds("children.name CONTAINS 'Byron'", person))
        #expect(try holds("ALL children.age > 100", TestPerson("None", age: 1)))   // vacuous truth
        #expect(try !holds("ANY children.age > 0", TestPerson("None", age: 1)))
        #expect(throws: PredicateEvaluationError.self) { try holds("ANY age > 1", person) }
    }

    @Test func qualifiersOverNilHaveNoElements() throws {
        // A to-many read through a nil to-one (`shelf` nil) is no collection at all: as over an
        // empty one, ANY is false, NONE true, ALL vacuously true (SQL finds no rows there).
        for shelfless in [["shelf": nil as Any?], ["shelf": NSNull()], [:]] as [[String: Any?]] {
            #expect(try !holds("ANY shelf.items.title != 'zzz'", shelfless))
            #expect(try !holds("SOME shelf.items.title == 'a'", shelfless))
            #expect(try holds("NONE shelf.items.title == 'a'", shelfless))
            #expect(try holds("ALL shelf.items.title == 'a'", shelfless))
            #expect(try holds("NOT (ANY shelf.items.title != 'zzz')", shelfless))
        }
        let shelf = ["items": [["title": "a"], ["title": "b"]]]
        #expect(try holds("ANY shelf.items.title != 'zzz'", ["shelf": shelf]))
        #expect(try !holds("ALL shelf.items.title == 'a'", ["shelf": shelf]))
        #expect(try !holds("NONE shelf.items.title == 'a'", ["shelf": shelf]))
        #expect(try !holds("ANY children.age > 0", TestPerson("Childless", age: 1, department: nil)))
        // A value that is there but is no collection stays an error.
        #expect(throws: PredicateEvaluationError.notACollection(operation: "ANY", valueType: "Int")) {
            try holds("ANY age > 1", ["age": 3])
        }
        #expect(throws: PredicateEvaluationError.notACollection(operation: "ALL", valueType: "String")) {
            try holds("ALL name == 'a'", ["name": "a"])
        }
        #expect(throws: PredicateEvaluationError.notACollection(operation: "ANY", valueType: "String")) {
            try holds("NONE name == 'a'", ["name": "a"])
        }
    }

    @Test func subqueries() throws {
        let person = ada
        #expect(try holds("SUBQUERY(children, $c, $c.age > 10).@count == 1", person))
        #expect(try holds("SUBQUERY(children, $c, $c.age > 1 AND $c.name BEGINSWITH 'B').@count == 1", person))
        #expect(try holds("SUBQUERY(children, $c, $c.age > 100).@count == 0", person))
        let names = try KeyValueExpression(format: "SUBQUERY(children, $c, $c.age > 10).name").expressionValue(with: person)
        #expect(names as? [Any] != nil)
        // A nil collection has no elements (SQL's answer through a nil to-one); a number is no collection.
        let childless = ["children": nil as Any?]
        #expect(try holds("SUBQUERY(children, $c, $c.age > 10).@count == 0", childless))
        #expect(try !holds("SUBQUERY(children, $c, $c.age > 10).@count > 0", childless))
        #expect(throws: PredicateEvaluationError.notACollection(operation: "SUBQUERY", valueType: "Int")) {
            try holds("SUBQUERY(age, $c, $c > 10).@count == 0", ["age": 3])
        }
    }

    @Test func functionsAndArithmetic() throws {
        func value(_ format: String, _ object: Any? = nil) throws -> Any? {
            try KeyValueExpression(format: format).expressionValue(with: object)
        }
        #expect(try value("1 + 2 * 3") as? Int == 7)
        #expect(try value("7 / 2") as? Double == 3.5)
        #expect(try value("2 ** 10") as? Double == 1024)
        #expect(try value("-(3 - 5)") as? Int == 2)
        #expect(try value("sum({1, 2, 3})") as? Int == 6)
        #expect(try value("average({1, 2, 3, 6})") as? Double == 3)
        #expect(try value("count({1, 2, 3})") as? Int == 3)
        #expect(try value("min({4, 2, 3})") as? Int == 2)
        #expect(try value("max({4, 2, 3})") as? Int == 4)
        #expect(try value("median({1, 9, 3, 4})") as? Double == 3.5)
        #expect(try value("stddev({1, 2, 3, 4, 4, 5, 9, 11})").map { abs(($0 as? Double ?? 0) - 3.2186) < 0.001 } == true)
        #expect(try value("sqrt(16)") as? Double == 4)
        #expect(try value("abs(-4)") as? Int == 4)
        #expect(try value("floor(2.7) + ceiling(2.2) + trunc(-1.5)") as? Double == 4)
        #expect(try value("uppercase('ab')") as? String == "AB")
        #expect(try value("lowercase(name)", ["name": "AB"]) as? String == "ab")
        #expect(try value("bitwiseAnd(12, 10)") as? Int == 8)
        #expect(try value("modulus(7, 3)") as? Int == 1)
        #expect(try value("now()") is Date)
        #expect(try value("tags[0]", ["tags": ["a", "b"]]) as? String == "a")
        #expect(try value("tags[LAST]", ["tags": ["a", "b"]]) as? String == "b")
        #expect(try value("tags[SIZE]", ["tags": ["a", "b"]]) as? Int == 2)
        #expect(try value("info['k']", ["info": ["k": 5]]) as? Int == 5)
        #expect(try value("TERNARY(n > 1, 'big', 'small')", ["n": 5]) as? String == "big")
        #expect(try value("CAST(n, 'NSString')", ["n": 5]) as? String == "5")
        #expect(throws: PredicateEvaluationError.self) { try value("tags[5]", ["tags": ["a"]]) }
        #expect(throws: PredicateEvaluationError.self) { try value("sqrt('x')") }
        #expect(throws: PredicateEvaluationError.self) { try KeyValueExpression.function(.sqrt, [1, 2]).expressionValue(with: nil) }
        #expect(try holds("age + 4 == 40 AND age * 2 > 70", ada))
    }

    @Test func selfAndPlainValues() throws {
        #expect(try holds("SELF == 5", 5))
        #expect(try holds("SELF BEGINSWITH 'ab'", "abc"))
        #expect(try holds("SELF IN {1, 2}", 2))
        #expect(try holds("SELF.@count == 3", [1, 2, 3]))
        #expect(try holds("ANY SELF > 2", [1, 2, 3]))
        #expect(try !holds("SELF == nil", 5))
        #expect(try holds("SELF == nil", nil))
    }

    @Test func variablesAndSubstitution() throws {
        let template = try KeyValuePredicate(format: "age > $minimum AND name IN $names")
        #expect(try template.evaluate(with: ada, substitutionVariables: ["minimum": 30, "names": ["Ada"]]))
        #expect(throws: PredicateEvaluationError.unboundVariable("minimum")) { try template.evaluate(with: self.ada) }
        let bound = try template.withSubstitutionVariables(["minimum": 40, "names": ["Ada"]])
        #expect(try !bound.evaluate(with: ada))
        #expect(bound == (try KeyValuePredicate(format: "age > 40 AND name IN {'Ada'}")))
        #expect(throws: PredicateEvaluationError.unboundVariable("names")) { try template.withSubstitutionVariables(["minimum": 1]) }
        let nilBound = try KeyValuePredicate(format: "nickname == $n").withSubstitutionVariables(["n": nil])
        #expect(try nilBound.evaluate(with: TestPerson("A", age: 1)))
        let subquery = try KeyValuePredicate(format: "SUBQUERY(children, $c, $c.age > $limit).@count > 0")
        let substituted = try subquery.withSubstitutionVariables(["limit": 10])
        #expect(try substituted.evaluate(with: ada))
        #expect(substituted.predicateFormat == "SUBQUERY(children, $c, $c.age > 10).@count > 0")
    }

    @Test func filteringArrays() throws {
        let people = [TestPerson("Ada", age: 36), TestPerson("Alan", age: 41), TestPerson("Grace", age: 85)]
        let predicate = try KeyValuePredicate(format: "name BEGINSWITH 'A' AND age > 40")
        #expect(try people.filtered(using: predicate).map(\.name) == ["Alan"])
        var mutable = people
        try mutable.filter(using: predicate)
        #expect(mutable.map(\.name) == ["Alan"])
        let anyArray: [Any] = people
        #expect(try anyArray.filtered(using: predicate).count == 1)
        let dictionaries: [[String: Any]] = [["n": 1], ["n": 2], [:]]
        #expect(try dictionaries.filtered(using: KeyValuePredicate(format: "n >= 2 OR n == nil")).count == 2)
    }

    @Test func invalidRegularExpressionThrows() throws {
        // A constant pattern is checked when the format is read; a pattern read from the object
        // when the predicate is evaluated.
        #expect(throws: PredicateParseError.self) { try holds("name MATCHES '('", ["name": "x"]) }
        #expect(throws: PredicateParseError.self) { try holds("name MATCHES %@", ["name": "x"], "[") }
        #expect(throws: PredicateEvaluationError.self) { try holds("name MATCHES p", ["name": "x", "p": "["]) }
    }
}
