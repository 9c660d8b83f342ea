import Foundation
import Testing
@testable import Predicates

/// Case folding for `[c]`, and the character rule CONTAINS, BEGINSWITH and ENDSWITH share.
@Suite("String rules")
struct StringRulesTests {
    private func holds(_ format: String, _ arguments: Any...) throws -> Bool {
        try KeyValuePredicate(format: format, argumentArray: arguments).evaluate(with: nil)
    }

    @Test func caseFoldingIsUnicodeFullFolding() throws {
        #expect(try !holds("%@ ==[c] %@", "ı", "I"))
        #expect(try !holds("%@ ==[c] %@", "ı", "i"))
        #expect(try holds("%@ ==[c] %@", "I", "i"))
        #expect(try !holds("%@ ==[c] %@", "İ", "i"))
        #expect(try holds("%@ ==[c] %@", "İ", "i\u{307}"))
        #expect(try holds("%@ ==[c] %@", "ß", "ss"))
        #expect(try holds("%@ ==[c] %@", "ẞ", "SS"))
        #expect(try holds("%@ ==[c] %@", "Straße", "STRASSE"))
        #expect(try holds("%@ ==[c] %@", "ς", "σ"))
        #expect(try holds("%@ ==[c] %@", "ΟΔΟΣ", "οδος"))
        #expect(try holds("%@ ==[c] %@", "ΟΔΟΣ", "οδoς") == false)
        #expect(try holds("%@ BEGINSWITH[c] %@", "ıstanbul", "ı"))
        #expect(try !holds("%@ BEGINSWITH[c] %@", "ıstanbul", "I"))
        #expect(try holds("%@ CONTAINS[cd] %@", "ÉCOLE", "ecol"))
    }

    @Test func partialCharactersNeverMatch() throws {
        let decomposed = "e\u{301}"
        for op in ["CONTAINS", "BEGINSWITH"] {
            #expect(try !holds("%@ \(op) %@", decomposed, "e"), "\(op)")
        }
        for op in ["CONTAINS", "ENDSWITH"] {
            #expect(try !holds("%@ \(op) %@", decomposed, "\u{301}"), "\(op)")
        }
        #expect(try !holds("%@ CONTAINS %@", "ae\u{301}", "ae"))
        #expect(try !holds("%@ BEGINSWITH %@", "ae\u{301}", "ae"))
        #expect(try holds("%@ CONTAINS %@", "ae\u{301}", "a"))
        #expect(try holds("%@ CONTAINS %@", "ae\u{301}", "\u{e9}"))
        #expect(try holds("%@ ENDSWITH %@", "ae\u{301}", "\u{e9}"))
        let family = "👨‍👩‍👧"
        #expect(try !holds("%@ CONTAINS %@", family, "👨"))
        #expect(try !holds("%@ BEGINSWITH %@", family, "👨"))
        #expect(try !holds("%@ ENDSWITH %@", family, "👧"))
        #expect(try holds("%@ CONTAINS %@", "x" + family + "y", family))
        #expect(try !holds("%@ CONTAINS %@", "a\r\nb", "\r"))
        #expect(try !holds("%@ ENDSWITH %@", "a\r\n", "\n"))
        #expect(try !holds("%@ BEGINSWITH %@", "\r\nb", "\r"))
        #expect(try holds("%@ CONTAINS %@", "a\r\nb", "\r\n"))
        // Key paths take the same paths as constants.
        let p = try KeyValuePredicate(format: "s CONTAINS t")
        #expect(try !p.evaluate(with: ["s": decomposed, "t": "e"]))
        #expect(try !p.evaluate(with: ["s": decomposed, "t": "\u{301}"]))
    }

    @Test func betweenNeedsTwoBoundsNotADictionary() throws {
        #expect(throws: PredicateEvaluationError.invalidBetweenBounds("Dictionary<String, Any>")) {
            // A `%@` dictionary becomes a constant dictionary, evaluated as `[String: Any]`.
            try KeyValuePredicate(format: "%@ BETWEEN %@", 1, ["a": 0, "b": 2]).evaluate(with: nil)
        }
        #expect(throws: PredicateEvaluationError.self) {
            try KeyValuePredicate(format: "x BETWEEN %@", NSDictionary(dictionary: ["a": 0, "b": 2]))
                .evaluate(with: ["x": 1])
        }
        #expect(try KeyValuePredicate(format: "x BETWEEN %@", [0, 2]).evaluate(with: ["x": 1]))
    }
}
