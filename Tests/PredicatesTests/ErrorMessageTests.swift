import Foundation
import Testing
@testable import Predicates

/// Errors name the real problem and the position where it starts.
@Suite("Error messages")
struct ErrorMessageTests {
    private func parseError(_ format: String, _ arguments: Any?...) -> PredicateParseError? {
        do {
            _ = try KeyValuePredicate(format: format, argumentArray: arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test func castOfANonNumberSaysSo() throws {
        let failure = try #require(parseError("CAST('abc', 'NSNumber') == 0"))
        #expect(failure.kind == .uncastableValue(position: 5, type: "NSNumber", reason: "\"abc\" is not a number"))
        #expect(failure.description == "at position 5 of \"CAST('abc', 'NSNumber') == 0\": cannot CAST to NSNumber: \"abc\" is not a number")
        #expect(parseError("CAST('12', 'NSNumber') == 12") == nil)
        #expect(try KeyValuePredicate(format: "CAST(nil, 'NSNumber') == nil").evaluate(with: nil))
    }

    @Test func castAtEvaluationThrowsForANonNumber() throws {
        let p = try KeyValuePredicate(format: "CAST(name, 'NSNumber') == 3")
        #expect(try p.evaluate(with: ["name": "3"]))
        #expect(try !p.evaluate(with: ["name": nil]))
        #expect(throws: PredicateEvaluationError.invalidFunctionArgument(
            function: "castObject:toType:", reason: "\"abc\" is not a number")) {
            try p.evaluate(with: ["name": "abc"])
        }
    }

    @Test func chainsTooDeepReportWhereTheLimitWasCrossed() throws {
        let limit = PredicateParser.maximumDepth
        let bangs = String(repeating: "!", count: 100_000) + "a == 1"
        let failure = try #require(parseError(bangs))
        // Read left to right, the `!` number limit + 1 (offset limit) is the first level too many.
        #expect(failure.kind == .nestingTooDeep(position: limit, limit: limit))
        let minus = "a == " + String(repeating: "-", count: 1_000) + "b"
        let minusFailure = try #require(parseError(minus))
        #expect(minusFailure.position == 5 + limit)
        let powers = "a == " + Array(repeating: "b", count: 1_000).joined(separator: " ** ")
        let powerFailure = try #require(parseError(powers))
        // `**` number k (from 0) sits at 5 + 5k + 2 and opens level k + 1.
        #expect(powerFailure.position == 5 + 5 * limit + 2)
        let sum = "a == " + Array(repeating: "1", count: 1_000).joined(separator: " + ")
        let sumFailure = try #require(parseError(sum))
        // `+` number k (from 0) sits at 5 + 4k + 2; the chain is left-associative, so the
        // leftmost term is under all of them and `+` number limit is the first too many.
        #expect(sumFailure.position == 5 + 4 * limit + 2)
    }

    @Test func invalidRegularExpressionsNameThePatternAndPosition() throws {
        let failure = try #require(parseError("name MATCHES '('"))
        #expect(failure.kind == .invalidRegularExpression(position: 13, pattern: "(", reason: "a '(' group is not closed"))
        #expect(failure.description == "at position 13 of \"name MATCHES '('\": invalid regular expression '(': a '(' group is not closed")
        #expect(!failure.description.contains("NSCocoaErrorDomain"))
        #expect(parseError("name MATCHES %@", "a)")?.position == 13)
        #expect(parseError("name MATCHES %@", "[a")?.description.contains("character class") == true)
        let p = try KeyValuePredicate(format: "name MATCHES p")
        #expect(throws: PredicateEvaluationError.invalidRegularExpression(pattern: "a\\", reason: "it ends with an unfinished escape '\\'")) {
            try p.evaluate(with: ["name": "a", "p": "a\\"])
        }
    }

    /// `print(error)` shows which predicate failed: the format in quotes, one line, cut to the
    /// 40 characters either side of the position when long.
    @Test func theOneLineDescriptionQuotesTheFormat() throws {
        let short = try #require(parseError("age >"))
        #expect(short.description == "at position 5 of \"age >\": expected an expression, found end of input")
        let lines = try #require(parseError("a == 1 AND\nb ==\t"))
        #expect(lines.description.hasPrefix("at position 16 of \"a == 1 AND b == \": "))
        let long = "title == 'x' AND " + String(repeating: "count > 1 AND ", count: 10) + "AND flag == 1"
        let failure = try #require(parseError(long))
        let position = failure.position
        try #require(position == 157, "\(failure)")
        let characters = Array(long)
        let window = String(characters[(position - 40)..<min(characters.count, position + 40)])
        #expect(failure.description.hasPrefix("at position \(position) of \"…" + window))
        #expect(!failure.description.contains("title"))
        #expect(!failure.description.contains("\n"))
    }
}
