import Foundation
import Testing
@testable import Predicates

@Suite("Parse errors")
struct ParseErrorTests {
    private func error(_ format: String, _ arguments: Any?...) -> PredicateParseError? {
        do {
            _ = try KeyValuePredicate(format: format, argumentArray: arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test func missingRightSideNamesPositionAndExpectation() throws {
        let failure = try #require(error("age >"))
        #expect(failure.kind == .unexpectedToken(position: 5, found: "end of input", expected: "an expression"))
        #expect(failure.description.contains("position 5"))
    }

    @Test(arguments: [
        ("age", 3), ("age > 3 AND", 11), ("(age > 3", 8), ("age > 3)", 7), ("age ! 3", 4),
        ("age > 3 4", 8), ("{1, 2", 5), ("ANY", 3), ("a == 1 OR", 9),
    ])
    func syntaxErrorPositions(format: String, position: Int) throws {
        let failure = try #require(error(format))
        #expect(failure.position == position, "\(failure)")
    }

    @Test func lexicalErrors() throws {
        #expect(error("a == 'open")?.kind == .unterminatedString(position: 5))
        #expect(error("a == 0x")?.kind == .invalidNumber(position: 5, text: "0x"))
        #expect(error("a == 12abc")?.kind == .invalidNumber(position: 5, text: "12a"))
        #expect(error("a ~ 1")?.kind == .invalidCharacter(position: 2, character: "~"))
        #expect(error("a == 1e")?.kind == .invalidNumber(position: 5, text: "1e"))
        #expect(error("é == 1 ~")?.kind == .invalidCharacter(position: 7, character: "~"))
        #expect(error(#"a == "\u00""#)?.position == 6)
    }

    @Test func argumentErrors() throws {
        #expect(error("a == %@")?.kind == .missingArgument(position: 5, index: 0, specifier: "@"))
        #expect(error("%K == 1", 5)?.kind == .argumentTypeMismatch(position: 0, index: 0, specifier: "K",
                                                             expected: "a key path string", actual: "Int"))
        #expect(error("a == %d", "x")?.kind == .argumentTypeMismatch(position: 5, index: 0, specifier: "d",
                                                               expected: "a number", actual: "String"))
        #expect(error("a == %d", 1.5)?.kind == .argumentTypeMismatch(position: 5, index: 0, specifier: "d",
                                                               expected: "an integer", actual: "Double"))
        #expect(error("a == %s", 1) != nil)
        #expect(error("a == %q")?.kind == .unsupportedSpecifier(position: 5, specifier: "q"))
        #expect(error("a == %%")?.kind == .unsupportedSpecifier(position: 5, specifier: "%"))
        #expect(error("a == %d AND b == %d", 1)?.position == 17)
    }

    @Test func functionAndModifierErrors() throws {
        #expect(error("a == nosuch(1)")?.kind == .unknownFunction(position: 5, name: "nosuch"))
        #expect(error("a == FUNCTION(SELF, 'x')")?.kind == .unknownFunction(position: 5, name: "FUNCTION"))
        #expect(error("a == sqrt(1, 2)")?.kind == .wrongArgumentCount(position: 5, function: "sqrt", expected: 1, actual: 2))
        #expect(error("a ==[x] 1")?.kind == .invalidModifier(position: 4, modifier: "x"))
        #expect(error("a == CAST(1, 'NSBlob')")?.kind == .invalidCast(position: 13, type: "\"NSBlob\""))
        #expect(error("SUBQUERY(a, b, TRUEPREDICATE).@count > 0")?.position == 12)
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let depth = 10_000
        let parens = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        guard case .nestingTooDeep(_, let limit)? = error(parens)?.kind else {
            Issue.record("expected nestingTooDeep")
            return
        }
        #expect(limit == PredicateParser.maximumDepth)
        let expression = "a == " + String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
        #expect(error(expression).map { if case .nestingTooDeep = $0.kind { true } else { false } } == true)
        let nots = String(repeating: "NOT ", count: depth) + "a == 1"
        #expect(error(nots).map { if case .nestingTooDeep = $0.kind { true } else { false } } == true)
        let minus = "a == " + String(repeating: "-", count: depth) + "b"
        #expect(error(minus).map { if case .nestingTooDeep = $0.kind { true } else { false } } == true)
        let chain = "a == " + Array(repeating: "1", count: depth).joined(separator: " + ")
        #expect(error(chain).map { if case .nestingTooDeep = $0.kind { true } else { false } } == true)
        // The message says that a flat chain counts, so a long sum is not a mystery.
        #expect(error(chain)?.localizedDescription.contains("a chain of operators") == true)
        let powers = "a == " + Array(repeating: "2", count: depth).joined(separator: " ** ")
        #expect(error(powers).map { if case .nestingTooDeep = $0.kind { true } else { false } } == true)
        let braces = "a IN " + String(repeating: "{", count: depth) + String(repeating: "}", count: depth)
        #expect(error(braces).map { if case .nestingTooDeep = $0.kind { true } else { false } } == true)
    }

    @Test func nestingWithinTheLimitWorks() throws {
        let depth = PredicateParser.maximumDepth
        let parens = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        let predicate = try KeyValuePredicate(format: parens)
        #expect(try predicate.evaluate(with: ["a": 1]))
        let nots = String(repeating: "NOT ", count: depth) + "a == 1"
        #expect(try KeyValuePredicate(format: nots).evaluate(with: ["a": 1]))
        let reparsed = try KeyValuePredicate(format: KeyValuePredicate(format: nots).predicateFormat)
        #expect(reparsed == (try KeyValuePredicate(format: nots)))
    }

    /// One count for every kind of level (trial12 N9): exactly `maximumDepth` brackets, NOTs,
    /// minus signs or chained operators parse, and one more is refused at the token that opens
    /// the first level too many, reading left to right.
    @Test func theLimitCountsEveryKindOfLevelAlike() throws {
        let limit = PredicateParser.maximumDepth
        func nots(_ n: Int) -> String { String(repeating: "NOT ", count: n) + "a.b == 1" }
        func bangs(_ n: Int) -> String { String(repeating: "!", count: n) + "a == 1" }
        func parens(_ n: Int) -> String { String(repeating: "(", count: n) + "a == 1" + String(repeating: ")", count: n) }
        func notParens(_ n: Int) -> String {
            String(repeating: "NOT (", count: n) + "a == 1" + String(repeating: ")", count: n)
        }
        func parensThenNots(_ n: Int) -> String {
            String(repeating: "(", count: 60) + String(repeating: "NOT ", count: n) + "a == 1"
                + String(repeating: ")", count: 60)
        }
        func minus(_ n: Int) -> String { "a == " + String(repeating: "-", count: n) + "b" }
        func sum(_ terms: Int) -> String { "a == " + Array(repeating: "1", count: terms).joined(separator: " + ") }
        func inner(_ n: Int) -> String { "a == " + String(repeating: "(", count: n) + "1" + String(repeating: ")", count: n) }
        func calls(_ n: Int) -> String { "a == " + String(repeating: "abs(", count: n) + "1" + String(repeating: ")", count: n) }
        let cases: [(String, (Int) -> String, Int)] = [
            // name, shape (one level per step), offset of the first token too many at limit + 1 steps
            ("NOT", nots, 4 * limit),
            ("!", bangs, limit),
            ("brackets", parens, limit),
            ("brackets in an expression", inner, 5 + limit),
            ("calls", calls, 5 + 4 * limit + 3),
            ("minus", minus, 5 + limit),
            ("sum", { sum($0 + 1) }, 5 + 4 * limit + 2),
        ]
        for (name, shape, position) in cases {
            #expect((try? KeyValuePredicate(format: shape(limit))) != nil, "\(name): \(limit) levels parse")
            let failure = error(shape(limit + 1))
            #expect(failure?.kind == .nestingTooDeep(position: position, limit: limit), "\(name)")
        }
        // Mixed: NOT ( NOT ( ... alternates, two levels per pair; the 51st NOT is level 101.
        #expect((try? KeyValuePredicate(format: notParens(limit / 2))) != nil)
        #expect(error(notParens(limit / 2 + 1))?.kind == .nestingTooDeep(position: 5 * (limit / 2), limit: limit))
        // 60 brackets, then NOTs: the 41st NOT is level 101.
        #expect((try? KeyValuePredicate(format: parensThenNots(limit - 60))) != nil)
        #expect(error(parensThenNots(limit - 60 + 1))?.kind
                    == .nestingTooDeep(position: 60 + 4 * (limit - 60), limit: limit))
        // A chain inside brackets counts the brackets too.
        let bracketedSum = String(repeating: "(", count: 10) + sum(limit - 10 + 1) + String(repeating: ")", count: 10)
        #expect((try? KeyValuePredicate(format: bracketedSum)) != nil)
        let tooLong = String(repeating: "(", count: 10) + sum(limit - 10 + 2) + String(repeating: ")", count: 10)
        #expect(error(tooLong)?.kind == .nestingTooDeep(position: 10 + 5 + 4 * (limit - 10) + 2, limit: limit))
        // The message names the limit it applies.
        #expect(error(nots(limit + 1))?.localizedDescription.contains("deeper than \(limit) levels") == true)
    }

    @Test func hugeFlatInputsParse() throws {
        let terms = Array(repeating: "a == 1", count: 20_000).joined(separator: " OR ")
        let predicate = try KeyValuePredicate(format: terms)
        #expect(predicate.subpredicates.count == 20_000)
        let path = "a" + String(repeating: ".b", count: 20_000) + " == 1"
        #expect(try KeyValuePredicate(format: path).comparison != nil)
    }
}
