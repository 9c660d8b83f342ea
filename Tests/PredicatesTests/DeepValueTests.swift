import Foundation
import Testing
@testable import Predicates

/// Constants and evaluated values whose collections nest very deeply.
@Suite("Deeply nested values")
struct DeepValueTests {
    /// `[[[…[1]…]]]` with `levels` arrays around the innermost one.
    static func nested(_ levels: Int) -> Any {
        var value: Any = [1]
        for _ in 0..<levels { value = [value] }
        return value
    }

    @Test func equalityWithinTheLimitCompares() throws {
        let p = try KeyValuePredicate(format: "x == y")
        let depth = ValueEquality.maximumNesting - 2
        #expect(try p.evaluate(with: ["x": Self.nested(depth), "y": Self.nested(depth)]))
        #expect(try !p.evaluate(with: ["x": Self.nested(depth), "y": Self.nested(depth - 1)]))
    }

    @Test func equalityPastTheLimitThrows() throws {
        let p = try KeyValuePredicate(format: "x == y")
        let deep = Self.nested(10_000)
        #expect(throws: PredicateEvaluationError.nestedTooDeeply(limit: ValueEquality.maximumNesting)) {
            try p.evaluate(with: ["x": deep, "y": deep])
        }
        let constant = try KeyValuePredicate(format: "%@ == %@", deep, Self.nested(10_000))
        #expect(throws: PredicateEvaluationError.nestedTooDeeply(limit: ValueEquality.maximumNesting)) {
            try constant.evaluate(with: nil)
        }
    }

    @Test func membershipPastTheLimitThrows() throws {
        let p = try KeyValuePredicate(format: "x IN %@", [Self.nested(5_000)])
        #expect(throws: PredicateEvaluationError.nestedTooDeeply(limit: ValueEquality.maximumNesting)) {
            try p.evaluate(with: ["x": Self.nested(5_000)])
        }
    }

    @Test func formattingPastTheLimitWritesAPlaceholder() throws {
        let p = try KeyValuePredicate(format: "x IN %@", Self.nested(10_000))
        let text = p.predicateFormat
        #expect(text.contains(PredicateFormatter.tooDeepPlaceholder))
        #expect(text.hasPrefix("x IN {{{"))
        let shallow = try KeyValuePredicate(format: "x IN %@", Self.nested(3))
        #expect(shallow.predicateFormat == "x IN {{{{1}}}}")
    }

    @Test func treeEqualityPastTheLimitIsFalse() throws {
        let deep = Self.nested(10_000)
        let p = try KeyValuePredicate(format: "x == %@", deep)
        let q = try KeyValuePredicate(format: "x == %@", Self.nested(10_000))
        #expect(p != q)
        let r = try KeyValuePredicate(format: "x == %@", Self.nested(50))
        #expect(r == (try KeyValuePredicate(format: "x == %@", Self.nested(50))))
    }
}
