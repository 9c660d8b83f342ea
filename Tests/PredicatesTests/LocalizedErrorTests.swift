import Foundation
import Testing
@testable import Predicates

/// Every error of the layer reads well through `localizedDescription`, and parse errors show
/// the format string with the position marked.
@Suite("Localized error descriptions")
struct LocalizedErrorTests {
    private func parseError(_ format: String, _ arguments: Any?...) throws -> PredicateParseError {
        do {
            _ = try KeyValuePredicate(format: format, argumentArray: arguments)
        } catch {
            return error
        }
        Issue.record("expected a parse error for \(format)")
        throw CancellationError()
    }

    @Test func parseErrorsQuoteTheFormatAndMarkThePosition() throws {
        let error = try parseError("age > AND name == 'x'")
        #expect(error.format == "age > AND name == 'x'")
        #expect(error.position == 6)
        #expect(error.localizedDescription == """
            Cannot parse the predicate format at position 6: expected an expression, found AND
                age > AND name == 'x'
                      ^
            """)
        let end = try parseError("age >")
        #expect(end.localizedDescription.hasSuffix("    age >\n         ^"))
        let expression: PredicateParseError
        do {
            _ = try KeyValueExpression(format: "1 + ")
            Issue.record("expected an error")
            return
        } catch {
            expression = error
        }
        #expect(expression.format == "1 + ")
        #expect(expression.localizedDescription.contains("    1 + \n        ^"))
    }

    @Test func longFormatsShowTheNeighbourhoodOfThePosition() throws {
        let long = Array(repeating: "a == 1", count: 40).joined(separator: " AND ") + " AND ~"
        let error = try parseError(long)
        let lines = try #require(error.errorDescription).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("    …") && lines[1].hasSuffix("AND ~"))
        #expect(lines[1].count <= 4 + 1 + 80)
        // The mark sits under the `~`.
        #expect(lines[2].count == lines[1].count)
        #expect(lines[2].hasSuffix("^"))
    }

    @Test func argumentErrorsAndKindsKeepTheirDetails() throws {
        let error = try parseError("a == %d", "x")
        #expect(error.kind == .argumentTypeMismatch(position: 5, index: 0, specifier: "d", expected: "a number", actual: "String"))
        #expect(error.localizedDescription.contains("argument 0 for %d must be a number, not String"))
        #expect(error.description == "at position 5 of \"a == %d\": argument 0 for %d must be a number, not String")
    }

    @Test func evaluationAndTranslationErrorsAreLocalized() throws {
        let errors: [any Error] = [
            PredicateEvaluationError.unboundVariable("x"),
            PredicateEvaluationError.notACollection(operation: "ANY", valueType: "Int"),
            PredicateEvaluationError.nestedTooDeeply(limit: 200),
            PredicateTranslationError.blockPredicate("BLOCKPREDICATE(0x1)"),
        ]
        let expected = ["no value is bound to the variable $x (give it one with withSubstitutionVariables([\"x\": …]))", "ANY needs a collection, not a value of type Int",
                        "nested deeper than 200 levels", "BLOCKPREDICATE(0x1) calls a Swift closure"]
        for (error, text) in zip(errors, expected) {
            #expect(error.localizedDescription.contains(text), "\(error.localizedDescription)")
            #expect(!error.localizedDescription.contains("operation could not be completed"))
        }
        do {
            _ = try KeyValuePredicate(format: "$x == 1").evaluate(with: nil)
            Issue.record("expected an unbound variable")
        } catch {
            #expect(error.localizedDescription == "no value is bound to the variable $x (give it one with withSubstitutionVariables([\"x\": …]))")
        }
    }
}
