import Testing
import KeyValueCoding
import Predicates

/// Enumerations with raw values compare by their raw values (as `@objc` enums do as numbers).
@Suite("Predicates over enumerations with raw values")
struct RawValuePredicateTests {
    enum Priority: Int { case low = 0, normal = 1, high = 2 }
    enum Kind: String { case a, b }
    final class Task: KeyValueCodable {
        var priority: Priority
        var kind: Kind
        init(_ priority: Priority, _ kind: Kind) {
            self.priority = priority
            self.kind = kind
        }
    }

    let tasks = [Task(.low, .a), Task(.high, .b), Task(.normal, .a)]

    @Test(arguments: [("priority >= 1", 2), ("priority == 1", 1), ("kind == 'a'", 2), ("priority IN {0, 2}", 2),
                      ("kind BEGINSWITH 'b'", 1)])
    func comparesRawValues(format: String, expected: Int) throws {
        let predicate = try KeyValuePredicate(format: format)
        #expect(try tasks.filtered(using: predicate).count == expected)
    }

    @Test func sortsByRawValues() throws {
        let sorted = try tasks.sorted(using: [KeyValueSortDescriptor(key: "priority", ascending: false)])
        #expect(sorted.map(\.priority) == [.high, .normal, .low])
    }
}
