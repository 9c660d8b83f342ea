import Foundation
import Testing
import KeyValueCoding
import Predicates

/// The examples of Docs/Predicates.md, compiled and checked.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    final class Item: KeyValueCodable {
        let identifier: Int
        init(identifier: Int) { self.identifier = identifier }
    }

    @Test func constantsAndTheMappingHook() throws {
        let someDate = Date(timeIntervalSinceReferenceDate: 60)
        let when: KeyValueExpression = .constant(value: someDate)
        #expect(when == .constant(.date(someDate)))
        let sum: KeyValueExpression = .function(.sum, [.keyPath("prices")])
        #expect(sum.description == "sum(prices)")
        let value = try KeyValueExpression(format: "4 + 5 - 2**3").expressionValue(with: nil)
        #expect(value as? Double == 1.0)

        let item = Item(identifier: 7)
        let predicate = try KeyValuePredicate(format: "item == %@", item)
        let resolved = predicate.mappingConstants { constant in
            guard case .object(let reference) = constant, let item = reference.object as? Item else { return constant }
            return KeyValueConstant(item.identifier)   // a Sendable & Hashable identifier
        }
        #expect(resolved.predicateFormat == "item == 7")
        #expect(KeyValueExpression.Function(selector: "add:to:") == .add)
        #expect(KeyValueExpression.Function.add.selector == "add:to:")
    }

    @Test func blockPredicateExamples() throws {
        let short = KeyValuePredicate { object, bindings in ((object as? String)?.count ?? 0) < 4 }
        #expect(try ["Ada", "Grace"].filtered(using: short) == ["Ada"])
        #expect(short.predicateFormat.hasPrefix("BLOCKPREDICATE(0x"))
        let atLeast = KeyValuePredicate { object, bindings in
            (object as? Int ?? 0) >= (bindings?["minimum"] as? Int ?? 0)
        }
        #expect(try atLeast.evaluate(with: 5, substitutionVariables: ["minimum": 3]))
        #expect(try atLeast.withSubstitutionVariables(["minimum": 3]).evaluate(with: 5))
        #expect(try !atLeast.withSubstitutionVariables(["minimum": 6]).evaluate(with: 5))
    }

    @Test func setExpressionAndComparatorExamples() throws {
        #expect(try KeyValueExpression(format: "{1, 2} UNION {2, 3}").expressionValue(with: nil) as? Set<AnyHashable> == [1, 2, 3])
        let shared = try KeyValuePredicate(format: "(tags INTERSECT $wanted).@count > 0")
        #expect(try shared.evaluate(with: ["tags": ["a", "b"]], substitutionVariables: ["wanted": ["b"]]))
        let byLength = KeyValueSortDescriptor.Comparator(name: "compareLength:") { a, b in
            let (x, y) = ((a as? String)?.count ?? 0, (b as? String)?.count ?? 0)
            return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
        }
        let descriptor = KeyValueSortDescriptor(key: "name", comparison: .comparator(byLength))
        let sorted = try [["name": "ccc"], ["name": "a"]].sorted(using: [descriptor])
        #expect(sorted.map { $0["name"] } == ["a", "ccc"])
    }

    @Test func parseErrorExample() throws {
        do {
            _ = try KeyValuePredicate(format: "age > AND name == 'x'")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unexpectedToken(position: 6, found: "AND", expected: "an expression"))
            #expect(error.description == "at position 6 of \"age > AND name == 'x'\": expected an expression, found AND")
        }
    }
}
