import Foundation
import Testing
@testable import Predicates

@Suite("Format and round trip")
struct FormatTests {
    @Test(arguments: [
        ("age>30", "age > 30"),
        ("age = 30", "age == 30"),
        ("age <> 30", "age != 30"),
        ("age =< 30 and age => 3", "age <= 30 AND age >= 3"),
        ("name beginswith[c] 'a'", "name BEGINSWITH[c] \"a\""),
        ("name like[cd] \"a*\"", "name LIKE[cd] \"a*\""),
        ("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
        ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
        ("NOT (a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"),
        ("! a == 1", "NOT a == 1"),
        ("any tags == 'x'", "ANY tags == \"x\""),
        ("NONE tags == 'x'", "NOT ANY tags == \"x\""),
        ("all tags == 'x'", "ALL tags == \"x\""),
        ("a IN {1, 2,3}", "a IN {1, 2, 3}"),
        ("a BETWEEN {1, 2}", "a BETWEEN {1, 2}"),
        ("a == nil", "a == nil"),
        ("a == YES", "a == 1"),
        ("a == 1.5", "a == 1.5"),
        ("a == 0x10", "a == 16"),
        ("a == 'say \"hi\"'", "a == \"say \\\"hi\\\"\""),
        ("#size == 1", "#size == 1"),
        ("SELF == $x", "SELF == $x"),
        ("truepredicate", "TRUEPREDICATE"),
        ("children.@count > 2", "children.@count > 2"),
        ("(a + 1) * 2 == b - -3", "(a + 1) * 2 == b - -3"),
        ("2 ** 3 ** 2 == (2 ** 3) ** 2", "2 ** 3 ** 2 == (2 ** 3) ** 2"),
        ("-a ** 2 == -2", "-a ** 2 == -2"),
        ("SUBQUERY(kids, $k, $k.age > 3).@count > 0", "SUBQUERY(kids, $k, $k.age > 3).@count > 0"),
        ("sum(scores) > average({1, 2})", "sum(scores) > average({1, 2})"),
        ("d < CAST(100, 'NSDate')", "d < CAST(100, \"NSDate\")"),
        ("tags[FIRST] == tags[0]", "tags[FIRST] == tags[0]"),
        ("TERNARY(a > 1, 'x', 'y') == 'x'", "TERNARY(a > 1, \"x\", \"y\") == \"x\""),
    ])
    func canonicalText(format: String, expected: String) throws {
        #expect(try canonical(format) == expected)
    }

    @Test func argumentsFormatAsLiterals() throws {
        #expect(try canonical("name IN %@", ["a", "b"]) == "name IN {\"a\", \"b\"}")
        #expect(try canonical("%K == %@", "first.name", "x") == "#first.name == \"x\"")
        #expect(try canonical("a == %f", 2.0) == "a == 2")
        #expect(try canonical("a == %@", Date(timeIntervalSinceReferenceDate: 1.5)) == "a == CAST(1.5, \"NSDate\")")
        #expect(try canonical("a == %@", Double.infinity) == "a == CAST(\"inf\", \"NSNumber\")")
        #expect(try canonical("a == %@", "line\nbreak\u{1}") == "a == \"line\\nbreak\\u{1}\"")
        #expect(try KeyValueExpression(format: "1 + 2 * 3").description == "1 + 2 * 3")
    }

    static let roundTripFormats = [
        "age > 30 AND name BEGINSWITH[c] 'a' OR department.name IN {'x','y'}",
        "NOT (a == 1 OR b != 2) AND NOT NOT c < 3", "ANY a.b.c LIKE[cd] '*x?'", "ALL a MATCHES '^[a-z]+$'",
        "NONE a ENDSWITH[n] 'z'", "a == nil OR a == NULL OR a == TRUE OR a == no", "a CONTAINS[c] 'é'",
        "a BETWEEN {-1, 1e10}", "a IN {{1, 2}, {}}", "SELF IN %@", "$x.name == $y", "a == 'tab\\tnew\\nline'",
        "(a + b) * c / d ** e ** -f == -(g - h)", "a - (b - c) == (a - b) - c", "uppercase(#in) == 'X'",
        "SUBQUERY(SUBQUERY(xs, $x, $x.v > 0), $y, ANY $y.w == 1).@count == 0", "FALSEPREDICATE OR TRUEPREDICATE",
        "a.@sum.b >= a.@avg.c", "now() > CAST(12345.678, 'NSDate')", "bitwiseOr(a, 3) == 7", "a[LAST][0] == 1",
        "TERNARY(a == 1, b, c) < 2", "random() < 2", "a == -9223372036854775807", "a == 1.7976931348623157e308",
        "((a == 1 AND b == 2) AND (c == 3 OR d == 4)) OR NOT e == 5", "CAST(a, 'NSNumber') == 1",
    ]

    @Test(arguments: roundTripFormats)
    func roundTrip(format: String) throws {
        let predicate = try KeyValuePredicate(format: format, ["a", "b"])
        let text = predicate.predicateFormat
        let reparsed = try KeyValuePredicate(format: text)
        #expect(reparsed == predicate, "\(text)")
        #expect(reparsed.predicateFormat == text)
    }

    @Test func builtPredicatesRoundTrip() throws {
        let built = KeyValuePredicate(.keyPath("name"), .in, .constant(["a", "b"]), options: [.caseInsensitive])
            || !KeyValuePredicate(.keyPath("order.size"), .lessThan, .keyPath("limit") * 2, modifier: .any)
        let reparsed = try KeyValuePredicate(format: built.predicateFormat)
        #expect(reparsed == built)
        #expect(built.predicateFormat == "name IN[c] {\"a\", \"b\"} OR NOT ANY order.#size < limit * 2")
        #expect(built.description == built.predicateFormat)
    }

    @Test func equalityDistinguishesDifferences() throws {
        let base = try KeyValuePredicate(format: "a == 1")
        #expect(base != (try KeyValuePredicate(format: "a == 2")))
        #expect(base != (try KeyValuePredicate(format: "a != 1")))
        #expect(base != (try KeyValuePredicate(format: "b == 1")))
        #expect(base != (try KeyValuePredicate(format: "a ==[c] 1")))
        #expect(base != (try KeyValuePredicate(format: "ANY a == 1")))
        #expect(base == (try KeyValuePredicate(format: "a == 1.0")))
        #expect(base == (try KeyValuePredicate(format: "SELF.a == 1")))
    }
}
