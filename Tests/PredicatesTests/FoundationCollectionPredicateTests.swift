import Foundation
import Predicates
import Testing
import KeyValueCoding

private final class OrderItem: KeyValueCodable {
    var name: String
    init(_ name: String) { self.name = name }
}

private final class FoundationOrder: KeyValueCodable {
    var items = NSOrderedSet(array: [OrderItem("apple"), OrderItem("pear")])
    var tags = NSSet(array: ["fresh", "local"])
}

/// Apple: predicates read to-many keys of `NSOrderedSet` (Core Data's ordered relationships),
/// `NSSet` and `NSArray` values with ANY/ALL/NONE, `@count` and `IN`/`CONTAINS`.
@Suite("Predicates over Foundation collections")
struct FoundationCollectionPredicateTests {
    @Test(arguments: [
        ("ANY items.name == 'apple'", true),
        ("ALL items.name ENDSWITH 'e'", false),
        ("NONE items.name == 'kiwi'", true),
        ("items.@count == 2", true),
        ("'local' IN tags", true),
        ("tags CONTAINS 'stale'", false),
        ("SUBQUERY(items, $i, $i.name BEGINSWITH 'p').@count == 1", true),
    ])
    func evaluates(format: String, expected: Bool) throws {
        #expect(try KeyValuePredicate(format: format).evaluate(with: FoundationOrder()) == expected)
    }
}
