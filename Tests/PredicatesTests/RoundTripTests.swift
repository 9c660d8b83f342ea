import Foundation
import Testing
@testable import Predicates

/// Apple documents `predicateFormat` as the format string of the predicate: parsing it again
/// must give an equal predicate that evaluates alike, for every constant that has a literal.
@Suite("predicateFormat round trips")
struct RoundTripTests {
    /// Parses `format`, formats it, parses that, and checks both the trees and the values.
    private func roundTrip(_ format: String, _ arguments: Any?..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let original = try KeyValuePredicate(format: format, argumentArray: arguments)
        let text = original.predicateFormat
        let reparsed = try KeyValuePredicate(format: text)
        #expect(reparsed == original, "\(format) → \(text)", sourceLocation: sourceLocation)
        #expect(reparsed.hashValue == original.hashValue, sourceLocation: sourceLocation)
        #expect(reparsed.predicateFormat == text, sourceLocation: sourceLocation)
        return text
    }

    private func expressionRoundTrip(_ expression: KeyValueExpression,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws -> Any? {
        let text = expression.description
        let reparsed = try KeyValueExpression(format: text)
        #expect(reparsed == expression, "\(text)", sourceLocation: sourceLocation)
        return try reparsed.expressionValue(with: nil)
    }

    /// `-YES` is `negate:` of a Boolean, not the number -1.
    @Test func negatedNonNumbersKeepTheirType() throws {
        #expect(try roundTrip("a == -YES") == "a == -YES")
        #expect(try roundTrip("a == -NO") == "a == -NO")
        #expect(try roundTrip("a == -'x'") == "a == -\"x\"")
        #expect(try roundTrip("a == -nil") == "a == -nil")
        #expect(try roundTrip("a == -CAST(0, 'NSDate')") == "a == -CAST(0, \"NSDate\")")
        // A minus before a number literal folds into it; negate: of a number constant (built
        // in code) keeps its parentheses so that it does not fold.
        #expect(try roundTrip("a == -5") == "a == -5")
        #expect(try roundTrip("a == -(5)") == "a == -(5)")
        #expect(try roundTrip("a == -(-5)") == "a == -(-5)")
        #expect(try roundTrip("a == - - 5") == "a == 5")
        let built = KeyValuePredicate(.keyPath("a"), .equalTo, -KeyValueExpression.constant(.double(2.5)))
        #expect(try KeyValuePredicate(format: built.predicateFormat) == built)
    }

    /// Dates whose interval is not finite, before 1970 or 2001, or fractional.
    @Test func datesRoundTrip() throws {
        #expect(try roundTrip("a == CAST(1e400, 'NSDate')") == "a == CAST(\"inf\", \"NSDate\")")
        #expect(try roundTrip("a == CAST(-1e400, 'NSDate')") == "a == CAST(\"-inf\", \"NSDate\")")
        _ = try roundTrip("a == %@", Date(timeIntervalSinceReferenceDate: .nan))
        _ = try roundTrip("a == %@", Date(timeIntervalSince1970: -86_400.25))
        _ = try roundTrip("a == %@", Date(timeIntervalSinceReferenceDate: 1e20))
        _ = try roundTrip("a == %@", Date(timeIntervalSinceReferenceDate: -0.0))
        let p = try KeyValuePredicate(format: "a == CAST(1e400, 'NSDate')")
        #expect(try p.evaluate(with: ["a": Date.distantFuture]) == false)
        #expect(try p.evaluate(with: ["a": Date(timeIntervalSinceReferenceDate: .infinity)]))
    }

    /// A `Decimal` keeps its type through the text (`CAST("1.5", "NSDecimalNumber")`).
    @Test func decimalsRoundTrip() throws {
        let decimal = try #require(Decimal(string: "0.1"))
        let text = try roundTrip("a == %@", decimal)
        #expect(text == "a == CAST(\"0.1\", \"NSDecimalNumber\")")
        let reparsed = try KeyValuePredicate(format: text)
        guard case .constant(.decimal(let value)) = reparsed.comparison?.rightExpression else {
            Issue.record("expected a decimal constant in \(reparsed)")
            return
        }
        #expect(value == decimal)
        _ = try roundTrip("a == %@", Decimal(string: "-12345678901234567890.5") as Any)
        #expect(try KeyValuePredicate(format: "CAST('2.50', 'NSDecimalNumber') == 2.5").evaluate(with: nil))
        #expect(try KeyValueExpression(format: "CAST(x, 'NSDecimalNumber')").expressionValue(with: ["x": "7.25"]) as? Decimal
                    == Decimal(string: "7.25"))
    }

    /// `-0.0` keeps its sign: `raise(-0.0, -1)` is -infinity.
    @Test func signedZeroAndNonFiniteDoubles() throws {
        let text = try roundTrip("a == raise(-0.0, -1)")
        #expect(text == "a == (-0.0) ** -1")   // `**` binds tighter than a minus sign
        let reparsed = try KeyValueExpression(format: "raise(-0.0, -1)")
        #expect(try KeyValueExpression(format: reparsed.description).expressionValue(with: nil) as? Double == -.infinity)
        #expect(try expressionRoundTrip(.constant(.double(-0.0))) as? Double == 0)
        let negativeZero = try expressionRoundTrip(.constant(.double(-0.0))) as? Double
        #expect(negativeZero?.sign == .minus)
        for special in [Double.infinity, -.infinity, .nan, .greatestFiniteMagnitude, -.leastNonzeroMagnitude, 1e15, -1e300] {
            let value = try expressionRoundTrip(.constant(.double(special))) as? Double
            #expect(value.map { $0 == special || ($0.isNaN && special.isNaN) } == true, "\(special)")
        }
        _ = try roundTrip("a == %@", Int64.min)
        _ = try roundTrip("a == %@", UInt64.max)
        _ = try roundTrip("a BETWEEN {-1.5, -0.0}")
    }
}
