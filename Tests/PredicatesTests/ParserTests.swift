import Foundation
import Testing
@testable import Predicates

@Suite("Parsing")
struct ParserTests {
    @Test(arguments: [
        ("a == 1", ComparisonOperator.equalTo), ("a = 1", .equalTo), ("a != 1", .notEqualTo),
        ("a <> 1", .notEqualTo), ("a < 1", .lessThan), ("a <= 1", .lessThanOrEqualTo),
        ("a =< 1", .lessThanOrEqualTo), ("a > 1", .greaterThan), ("a >= 1", .greaterThanOrEqualTo),
        ("a => 1", .greaterThanOrEqualTo), ("a BETWEEN {1, 2}", .between), ("a IN {1}", .in),
        ("a CONTAINS 'x'", .contains), ("a BEGINSWITH 'x'", .beginsWith), ("a ENDSWITH 'x'", .endsWith),
        ("a LIKE 'x'", .like), ("a MATCHES 'x'", .matches), ("a like 'x'", .like), ("a In {1}", .in),
    ])
    func operators(format: String, expected: ComparisonOperator) throws {
        let comparison = try #require(try KeyValuePredicate(format: format).comparison)
        #expect(comparison.comparisonOperator == expected)
        #expect(comparison.leftExpression == .keyPath("a"))
    }

    @Test(arguments: [
        ("[c]", ComparisonOptions.caseInsensitive), ("[d]", .diacriticInsensitive),
        ("[cd]", ComparisonOptions([.caseInsensitive, .diacriticInsensitive])),
        ("[DC]", ComparisonOptions([.caseInsensitive, .diacriticInsensitive])),
        ("[n]", .normalized), ("", ComparisonOptions()),
    ])
    func modifiers(modifier: String, expected: ComparisonOptions) throws {
        let comparison = try #require(try KeyValuePredicate(format: "name BEGINSWITH\(modifier) 'a'").comparison)
        #expect(comparison.options == expected)
    }

    @Test func qualifiers() throws {
        #expect(try KeyValuePredicate(format: "ANY tags == 'x'").comparison?.modifier == .any)
        #expect(try KeyValuePredicate(format: "SOME tags == 'x'").comparison?.modifier == .any)
        #expect(try KeyValuePredicate(format: "all tags == 'x'").comparison?.modifier == .all)
        let none = try KeyValuePredicate(format: "NONE tags == 'x'")
        guard case .not(let inner) = none.kind else {
            Issue.record("NONE should read as NOT ANY")
            return
        }
        #expect(inner.comparison?.modifier == .any)
    }

    @Test(arguments: [
        ("a == 42", 42 as any Sendable), ("a == -7", -7), ("a == 0x1F", 31), ("a == 0o17", 15), ("a == 0b101", 5),
        ("a == 1.5", 1.5), ("a == 1e3", 1000.0), ("a == 2.5E-1", 0.25), ("a == 'x'", "x"), ("a == \"y\"", "y"),
        ("a == TRUE", true), ("a == yes", true), ("a == FALSE", false), ("a == NO", false),
    ])
    func literals(format: String, expected: any Sendable) throws {
        let comparison = try #require(try KeyValuePredicate(format: format).comparison)
        #expect(comparison.rightExpression == .constant(value: expected))
    }

    @Test func nilLiterals() throws {
        for format in ["a == nil", "a == NULL", "a == Nil"] {
            let comparison = try #require(try KeyValuePredicate(format: format).comparison)
            guard case .constant(let value) = comparison.rightExpression else {
                Issue.record("expected a constant")
                continue
            }
            #expect(value == .null)
        }
    }

    @Test(arguments: [
        (#"a == "q\"q""#, "q\"q"), (#"a == 'it\'s'"#, "it's"), (#"a == "\n\t\\""#, "\n\t\\"),
        (#"a == "\u00e9""#, "é"), (#"a == "\x41""#, "A"), (#"a == "\u{1F600}""#, "😀"), (#"a == "\101""#, "A"),
    ])
    func stringEscapes(format: String, expected: String) throws {
        let comparison = try #require(try KeyValuePredicate(format: format).comparison)
        #expect(comparison.rightExpression == .constant(.string(expected)))
    }

    @Test func andBindsTighterThanOr() throws {
        let predicate = try KeyValuePredicate(format: "a == 1 OR b == 2 AND c == 3")
        guard case .or(let list) = predicate.kind, list.count == 2, case .and(let inner) = list[1].kind else {
            Issue.record("expected a OR (b AND c), got \(predicate)")
            return
        }
        #expect(inner.count == 2)
        let other = try KeyValuePredicate(format: "a == 1 AND b == 2 || c == 3 && d == 4")
        guard case .or(let parts) = other.kind else {
            Issue.record("expected OR at the top")
            return
        }
        #expect(parts.count == 2)
    }

    @Test func notBindsTighterThanAnd() throws {
        let predicate = try KeyValuePredicate(format: "NOT a == 1 AND b == 2")
        guard case .and(let list) = predicate.kind, case .not = list[0].kind else {
            Issue.record("expected (NOT a) AND b")
            return
        }
        #expect(try KeyValuePredicate(format: "!(a == 1)") == .not(KeyValuePredicate(.keyPath("a"), .equalTo, 1)))
    }

    @Test func chainsAreFlat() throws {
        let predicate = try KeyValuePredicate(format: "a == 1 AND b == 2 AND c == 3")
        #expect(predicate.subpredicates.count == 3)
        let grouped = try KeyValuePredicate(format: "(a == 1 AND b == 2) AND c == 3")
        #expect(grouped.subpredicates.count == 2)
    }

    @Test func arithmeticPrecedence() throws {
        let e = try KeyValueExpression(format: "1 + 2 * 3")
        #expect(e == .function(.add, [1, .function(.multiply, [2, 3])]))
        let left = try KeyValueExpression(format: "8 - 4 - 2")
        #expect(left == .function(.subtract, [.function(.subtract, [8, 4]), 2]))
        let power = try KeyValueExpression(format: "2 ** 3 ** 2")
        #expect(power == .function(.raise, [2, .function(.raise, [3, 2])]))
        let negation = try KeyValueExpression(format: "-a ** 2")
        #expect(negation == .function(.negate, [.function(.raise, [.keyPath("a"), 2])]))
        #expect(try KeyValueExpression(format: "(1 + 2) * 3") == .function(.multiply, [.function(.add, [1, 2]), 3]))
        #expect(try KeyValueExpression(format: "4 + 5 - 2**3").expressionValue(with: nil) as? Double == 1)
    }

    @Test func parenthesizedExpressionsAndPredicates() throws {
        #expect(try KeyValuePredicate(format: "(a) == 1") == KeyValuePredicate(.keyPath("a"), .equalTo, 1))
        #expect(try KeyValuePredicate(format: "((a == 1))") == KeyValuePredicate(.keyPath("a"), .equalTo, 1))
        #expect(try KeyValuePredicate(format: "(a + 1) * 2 > 3").comparison != nil)
    }

    @Test func keywordsAreCaseInsensitiveAndHashEscapes() throws {
        let p = try KeyValuePredicate(format: "a == 1 and b == 2 Or not c == 3")
        guard case .or = p.kind else {
            Issue.record("expected OR")
            return
        }
        let escaped = try KeyValuePredicate(format: "#size == 3 AND #IN.#from == 'x'")
        guard case .and(let list) = escaped.kind else {
            Issue.record("expected AND")
            return
        }
        #expect(list[0].comparison?.leftExpression == .keyPath("size"))
        #expect(list[1].comparison?.leftExpression == .keyPath("IN.from"))
        #expect(throws: PredicateParseError.self) { try KeyValuePredicate(format: "size == 3") }
    }

    @Test func keyPathsVariablesAndSelf() throws {
        #expect(try KeyValueExpression(format: "department.name") == .keyPath("department.name"))
        #expect(try KeyValueExpression(format: "SELF.name") == .keyPath("name"))
        #expect(try KeyValueExpression(format: "SELF") == .evaluatedObject)
        #expect(try KeyValueExpression(format: "children.@count") == .keyPath("children.@count"))
        #expect(try KeyValueExpression(format: "@sum.salary") == .keyPath("@sum.salary"))
        #expect(try KeyValueExpression(format: "$x.name") == .keyPathOf(.variable("x"), "name"))
        #expect(try KeyValueExpression(format: "{1, 'a', nil}") == .aggregate([1, .constant("a"), nil]))
        #expect(try KeyValueExpression(format: "{}") == .aggregate([]))
    }

    @Test func functionsSubqueriesIndexesAndCasts() throws {
        #expect(try KeyValueExpression(format: "sum({1, 2})") == .function(.sum, [[1, 2]]))
        #expect(try KeyValueExpression(format: "now()") == .function(.now, []))
        #expect(try KeyValueExpression(format: "uppercase(name)") == .function(.uppercase, [.keyPath("name")]))
        let subquery = try KeyValueExpression(format: "SUBQUERY(children, $c, $c.age > 3).@count")
        guard case .keyPathOf(.subquery(_, "c", _), "@count") = subquery else {
            Issue.record("expected SUBQUERY(...).@count, got \(subquery)")
            return
        }
        #expect(try KeyValueExpression(format: "tags[0]") == .index(.keyPath("tags"), 0))
        #expect(try KeyValueExpression(format: "tags[LAST]") == .index(.keyPath("tags"), .indexSymbol(.last)))
        let date = try KeyValueExpression(format: "CAST(0, \"NSDate\")")
        #expect(date == .constant(.date(Date(timeIntervalSinceReferenceDate: 0))))
        #expect(try KeyValueExpression(format: "CAST('12', 'NSNumber')") == .constant(12))
        let ternary = try KeyValueExpression(format: "TERNARY(age > 3, 'big', 'small')")
        guard case .conditional = ternary else {
            Issue.record("expected TERNARY")
            return
        }
    }

    @Test func formatArguments() throws {
        let p = try KeyValuePredicate(format: "%K > %d AND name IN %@ AND ratio < %f AND code == %s",
                                      "age", 30, ["a", "b"], 0.5, "Z")
        #expect(p == KeyValuePredicate.and([
            KeyValuePredicate(.keyPath("age"), .greaterThan, 30),
            KeyValuePredicate(.keyPath("name"), .in, .constant(["a", "b"])),
            KeyValuePredicate(.keyPath("ratio"), .lessThan, 0.5),
            KeyValuePredicate(.keyPath("code"), .equalTo, .constant("Z")),
        ]))
        #expect(try KeyValuePredicate(format: "a == %ld OR a == %lld OR a == %i", 1, Int64(2), UInt8(3)).subpredicates.count == 3)
        #expect(try KeyValuePredicate(format: "a == %@", nil as String?) == KeyValuePredicate(.keyPath("a"), .equalTo, nil))
        #expect(try KeyValuePredicate(format: "%K.name == 'x'", "department").comparison?.leftExpression == .keyPath("department.name"))
        #expect(try KeyValuePredicate(format: "a == %lf", 2.5).comparison?.rightExpression == 2.5)
    }

    @Test func builderMatchesParser() throws {
        let built = KeyValuePredicate(.keyPath("age"), .greaterThan, 30)
            && !KeyValuePredicate(.keyPath("name"), .beginsWith, .constant("a"), options: .caseInsensitive)
            || .alwaysFalse
        let parsed = try KeyValuePredicate(format: "(age > 30 AND NOT name BEGINSWITH[c] 'a') OR FALSEPREDICATE")
        #expect(built == parsed)
        #expect(KeyValueExpression.keyPath("a") + 1 == (try KeyValueExpression(format: "a + 1")))
        #expect(KeyValueExpression.keyPath("a").compared(.like, to: .constant("x*")) == (try KeyValuePredicate(format: "a LIKE 'x*'")))
    }

    @Test func constantPredicates() throws {
        #expect(try KeyValuePredicate(format: "TRUEPREDICATE") == .alwaysTrue)
        #expect(try KeyValuePredicate(format: "falsepredicate") == .alwaysFalse)
        #expect(try KeyValuePredicate(format: "TRUEPREDICATE").evaluate(with: nil))
        #expect(try !KeyValuePredicate(value: false).evaluate(with: nil))
    }
}
