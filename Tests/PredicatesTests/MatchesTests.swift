import Foundation
import Testing
@testable import Predicates

/// `MATCHES` is a whole-string ICU match (ICU `matches()`), and gives an error, never a wrong
/// answer, when the regular-expression engine gives up.
@Suite("MATCHES")
struct MatchesTests {
    private func matches(_ subject: String, _ pattern: String, options: String = "") throws -> Bool {
        let constant = try KeyValuePredicate(format: "s MATCHES\(options) %@", pattern)
        let variable = try KeyValuePredicate(format: "s MATCHES\(options) p")
        let viaConstant = try constant.evaluate(with: ["s": subject])
        let viaVariable = try variable.evaluate(with: ["s": subject, "p": pattern])
        #expect(viaConstant == viaVariable)
        return viaConstant
    }

    @Test func alternationAndLazyQuantifiersMatchTheWholeString() throws {
        #expect(try matches("ab", "a|ab"))
        #expect(try matches("aa", "a*?"))
        #expect(try matches("abc", "a.*?"))
        #expect(try matches("ab", "(a|ab)(c|bcd)?"))
        #expect(try !matches("abc", "a|ab"))
        #expect(try !matches("xab", "ab"))
        #expect(try matches("", "a*?"))
    }

    @Test func multilineInput() throws {
        #expect(try !matches("a\nb", "a"))
        #expect(try !matches("a\nb", "a.b"))
        #expect(try matches("a\nb", "a\\nb"))
        #expect(try matches("a\nb", "(?s)a.b"))
        #expect(try !matches("a\n", "a$"))
        #expect(try matches("a\nb", "(?m)a$\\n^b"))
    }

    @Test func patternsWithTheirOwnAnchorsAndFlags() throws {
        #expect(try matches("abc", "^abc$"))
        #expect(try matches("abc", "\\Aabc\\z"))
        #expect(try !matches("abcd", "^abc"))
        #expect(try matches("ABC", "(?i)abc"))
        #expect(try matches("ABC", "abc", options: "[c]"))
        #expect(try matches("ab", "(?x) a b # a comment"))
        #expect(try matches("a.b", "\\Qa.b"))
        #expect(try !matches("axb", "\\Qa.b"))
        #expect(try matches("abab", "(ab)\\1"))
        #expect(try matches("ab", "(?<first>a)b"))
    }

    @Test func anEngineThatGivesUpThrows() throws {
        let subject = String(repeating: "a", count: 30) + "!"
        #expect(throws: PredicateEvaluationError.self) {
            try KeyValuePredicate(format: "s MATCHES %@", "(?:(a|a)+b|.*)").evaluate(with: ["s": subject])
        }
        do {
            _ = try KeyValuePredicate(format: "s MATCHES p").evaluate(with: ["s": subject, "p": "(?:(a|a)+b|.*)"])
            Issue.record("expected an error")
        } catch let error as PredicateEvaluationError {
            guard case .regularExpressionGaveUp(let pattern) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(pattern == "(?:(a|a)+b|.*)")
            #expect(error.description.contains("(?:(a|a)+b|.*)"))
        }
        // The same pattern on a short subject is answered.
        #expect(try matches("aaa!", "(?:(a|a)+b|.*)"))
    }
}
