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
        let depth = PredicateParser.maximumDepth - 1
        let parens = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        let predicate = try KeyValuePredicate(format: parens)
        #expect(try predicate.evaluate(with: ["a": 1]))
        let nots = String(repeating: "NOT ", count: PredicateParser.maximumDepth - 2) + "a == 1"
        #expect(try KeyValuePredicate(format: nots).evaluate(with: ["a": 1]))
        let reparsed = try KeyValuePredicate(format: KeyValuePredicate(format: nots).predicateFormat)
        #expect(reparsed == (try KeyValuePredicate(format: nots)))
    }

    @Test func hugeFlatInputsParse() throws {
        let terms = Array(repeating: "a == 1", count: 20_000).joined(separator: " OR ")
        let predicate = try KeyValuePredicate(format: terms)
        #expect(predicate.subpredicates.count == 20_000)
        let path = "a" + String(repeating: ".b", count: 20_000) + " == 1"
        #expect(try KeyValuePredicate(format: path).comparison != nil)
    }
}
