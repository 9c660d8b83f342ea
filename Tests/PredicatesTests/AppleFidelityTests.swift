import Foundation
import Testing
import KeyValueCoding
@testable import Predicates

/// Subscripts, block predicates and set expressions, each against Apple's documented rule.
@Suite("Subscripts, block predicates and set expressions")
struct AppleFidelityTests {
    private func value(_ format: String, _ object: Any? = nil, _ arguments: Any?...) throws -> Any? {
        try KeyValueExpression(format: format, argumentArray: arguments).expressionValue(with: object)
    }

    // MARK: Subscripts

    /// Apple: `collection[index]` is `objectFrom:withIndex:`, which sends `objectForKey:` to a
    /// dictionary (whatever the key's type) and uses positions only for arrays.
    @Test func dictionarySubscriptsUseKeysOfAnyType() throws {
        let byNumber: [Int: String] = [4: "four", 0: "zero"]
        #expect(try value("d[4]", ["d": byNumber]) as? String == "four")
        #expect(try value("d[0]", ["d": byNumber]) as? String == "zero")
        #expect(try value("d[1]", ["d": byNumber]) == nil)              // no key 1: nil, not a position
        #expect(try value("d[4.0]", ["d": byNumber]) as? String == "four")   // keys equal as numbers
        #expect(try value("d['a']", ["d": ["a": 1, "b": 2]]) as? Int == 1)
        #expect(try value("d[%@]", ["d": [Status.open: "o"]], Status.open) as? String == "o")
        let bridged = NSDictionary(dictionary: [NSNumber(value: 4): "four"])
        #expect(try value("d[4]", ["d": bridged]) as? String == "four")
        #expect(try value("d[SIZE]", ["d": byNumber]) as? Int == 2)
        #expect(throws: PredicateEvaluationError.self) { try value("d[FIRST]", ["d": byNumber]) }
        // Arrays still use positions.
        #expect(try value("a[1]", ["a": [10, 20, 30]]) as? Int == 20)
        #expect(try value("a[LAST]", ["a": [10, 20, 30]]) as? Int == 30)
        #expect(try holds("d[4] == 'four' AND a[0] == 10", ["d": byNumber, "a": [10]]))
    }

    enum Status: String, Hashable { case open, closed }

    // MARK: Block predicates

    /// Apple: `NSPredicate(block:)` calls the block with the evaluated object and the
    /// substitution bindings; its `predicateFormat` is `BLOCKPREDICATE(<address>)`.
    @Test func blockPredicatesEvaluateAndFilter() throws {
        let short = KeyValuePredicate { object, _ in ((object as? String)?.count ?? 0) < 4 }
        #expect(try short.evaluate(with: "Ada"))
        #expect(try !short.evaluate(with: "Grace"))
        #expect(try ["Ada", "Grace", "Bob"].filtered(using: short) == ["Ada", "Bob"])
        let text = short.predicateFormat
        #expect(text.hasPrefix("BLOCKPREDICATE(0x") && text.hasSuffix(")"), "\(text)")
        #expect(short == short && short.hashValue == short.hashValue)
        #expect(short != KeyValuePredicate { object, _ in ((object as? String)?.count ?? 0) < 4 })
    }

    @Test func blockPredicatesGetTheBindings() throws {
        let atLeast = KeyValuePredicate { object, bindings in
            guard let value = object as? Int, let minimum = bindings?["minimum"] as? Int else { return false }
            return value >= minimum
        }
        #expect(try atLeast.evaluate(with: 5, substitutionVariables: ["minimum": 3]))
        #expect(try !atLeast.evaluate(with: 2, substitutionVariables: ["minimum": 3]))
        #expect(try !atLeast.evaluate(with: 5))   // no bindings: nil
        let bound = try atLeast.withSubstitutionVariables(["minimum": 3])
        #expect(try bound.evaluate(with: 5))
        #expect(try !bound.evaluate(with: 2))
        #expect(bound != atLeast)
        let combined = try KeyValuePredicate(format: "SELF > 0") && atLeast
        #expect(try combined.evaluate(with: 4, substitutionVariables: ["minimum": 4]))
        #expect(combined.predicateFormat.hasPrefix("SELF > 0 AND BLOCKPREDICATE(0x"))
    }

    /// A block predicate can never become SQL: stores must be told.
    @Test func blockPredicatesAreNotTranslatable() throws {
        let block = KeyValuePredicate { _, _ in true }
        #expect(!block.isTranslatable)
        #expect(!(try KeyValuePredicate(format: "a == 1") || !block).isTranslatable)
        let inSubquery = KeyValuePredicate(
            .function(.count, [.subquery(.keyPath("items"), variable: "x", predicate: block)]), .greaterThan, 0)
        #expect(!inSubquery.isTranslatable)
        #expect(try KeyValuePredicate(format: "a == 1 AND SUBQUERY(b, $x, $x > 1).@count > 0").isTranslatable)
        #expect(throws: PredicateTranslationError.blockPredicate(block.predicateFormat)) { try block.checkTranslatable() }
        do {
            try block.checkTranslatable()
        } catch {
            #expect(error.localizedDescription.contains("BLOCKPREDICATE(0x"))
            #expect(error.localizedDescription.contains("in memory"))
        }
    }

    // MARK: Set expressions

    /// Apple: `UNION`, `INTERSECT` and `MINUS` build an `NSSet` (each element once) from two
    /// collections.
    @Test func setExpressionsFollowNSSet() throws {
        #expect(try value("{1, 2} UNION {2, 3}") as? Set<AnyHashable> == [1, 2, 3])
        #expect(try value("{1, 2, 3} INTERSECT {2, 3, 4}") as? Set<AnyHashable> == [2, 3])
        #expect(try value("{1, 2, 3} MINUS {2}") as? Set<AnyHashable> == [1, 3])
        #expect(try value("{1, 1, 2} UNION {}") as? Set<AnyHashable> == [1, 2])
        #expect(try value("{1} UNION {1.0}").map { ($0 as? Set<AnyHashable>)?.count } == 1)
        let tags = try KeyValueExpression(format: "tags UNION $other")
        let union = try tags.expressionValue(with: ["tags": ["a", "b"]], variables: ["other": Set(["b", "c"])])
        #expect(union as? Set<AnyHashable> == ["a", "b", "c"])
        #expect(try value("{1, 2} union {3} minus {1}") as? Set<AnyHashable> == [2, 3])   // left to right
        #expect(throws: PredicateEvaluationError.self) { try value("{1} UNION 5") }
    }

    @Test func setExpressionsInPredicates() throws {
        let person = ["tags": ["a", "b"], "more": ["c"]] as [String: Any]
        #expect(try holds("'c' IN tags UNION more", person))
        #expect(try holds("(tags UNION more).@count == 3", person))
        #expect(try holds("(tags INTERSECT {'b', 'z'}).@count == 1", person))
        #expect(try holds("ALL (tags MINUS {'b'}) == 'a'", person))
        // The words stay usable as keys.
        #expect(try holds("union == 1 AND minus.intersect == 2", ["union": 1, "minus": ["intersect": 2]]))
    }

    @Test func setExpressionsParseFormatAndBuild() throws {
        let parsed = try KeyValueExpression(format: "{1, 2} UNION {2, 3}")
        #expect(parsed == .union([1, 2], [2, 3]))
        #expect(parsed.description == "{1, 2} UNION {2, 3}")
        #expect(try KeyValueExpression(format: "a INTERSECT b + 1") == .intersect(.keyPath("a"), .keyPath("b") + 1))
        let nested = KeyValueExpression.minus(.keyPath("a"), .union(.keyPath("b"), .keyPath("c")))
        #expect(nested.description == "a MINUS (b UNION c)")
        #expect(try KeyValueExpression(format: nested.description) == nested)
        let leftNested = KeyValueExpression.minus(.union(.keyPath("b"), .keyPath("c")), .keyPath("a"))
        #expect(leftNested.description == "b UNION c MINUS a")
        #expect(try KeyValueExpression(format: leftNested.description) == leftNested)
        let predicate = try KeyValuePredicate(format: "x IN tags union $other")
        #expect(predicate.predicateFormat == "x IN tags UNION $other")
        #expect(try KeyValuePredicate(format: predicate.predicateFormat) == predicate)
    }
}
