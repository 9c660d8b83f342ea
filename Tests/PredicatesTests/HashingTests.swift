import Foundation
import Testing
@testable import Predicates

/// Apple: `NSPredicate`, `NSExpression` and `NSSortDescriptor` implement `isEqual:` and
/// `hash` consistently (equal objects have equal hashes), so they work as dictionary keys and
/// set members.
@Suite("Hashing and equality of predicates, expressions and sort descriptors")
struct HashingTests {
    private func expectEqualAndHashAlike<T: Hashable>(_ a: T, _ b: T, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a == b, sourceLocation: sourceLocation)
        #expect(a.hashValue == b.hashValue, sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        ("a == 1", "a == 1.0"), ("a == YES", "a == 1"), ("SELF.a > 2", "a > 2"),
        ("a IN {1, 2}", "a IN %@"), ("a == 1 AND b == 'x'", "(a == 1) && b == \"x\""),
        ("ANY tags ==[c] 'x'", "SOME tags =[c] 'x'"), ("SUBQUERY(c, $x, $x.a > 1).@count == 0", "SUBQUERY(c, $x, $x.a > 1.0).@count == 0"),
        ("a == CAST(0, 'NSDate')", "a == %@"),
    ])
    func equalPredicatesHashAlike(first: String, second: String) throws {
        let a = try KeyValuePredicate(format: first)
        let argument: Any = first.contains("NSDate") ? Date(timeIntervalSinceReferenceDate: 0) : [1, 2]
        let b = try KeyValuePredicate(format: second, argument)
        expectEqualAndHashAlike(a, b)
    }

    @Test func predicatesWorkInSetsAndAsKeys() throws {
        let formats = ["a == 1", "a == 1.0", "a == 2", "a == 2", "b == 1"]
        let set = Set(try formats.map { try KeyValuePredicate(format: $0) })
        #expect(set.count == 3)
        var counts: [KeyValueExpression: Int] = [:]
        for text in ["a + 1", "a + 1.0", "SELF.a + 1", "a - 1"] {
            counts[try KeyValueExpression(format: text), default: 0] += 1
        }
        #expect(counts[try KeyValueExpression(format: "a + 1")] == 3)
        #expect(counts.count == 2)
    }

    @Test func unequalPredicatesAreUnequal() throws {
        let pairs = [("a == 1", "a == 2"), ("a == 1", "a != 1"), ("a == 'x'", "a ==[c] 'x'"),
                     ("ANY a == 1", "ALL a == 1"), ("a == 1 AND b == 1", "a == 1 OR b == 1"),
                     ("a == {1, 2}", "a == {2, 1}"), ("a == $x", "a == $y")]
        for (first, second) in pairs {
            #expect(try KeyValuePredicate(format: first) != KeyValuePredicate(format: second), "\(first) vs \(second)")
        }
    }

    /// `NSSortDescriptor` is equal to another with the same key, direction and selector.
    @Test func sortDescriptorsCompareByKeyDirectionAndComparison() throws {
        expectEqualAndHashAlike(KeyValueSortDescriptor(key: "a"), KeyValueSortDescriptor(key: "a", ascending: true, comparison: .compare))
        expectEqualAndHashAlike(KeyValueSortDescriptor(key: "a", ascending: false).reversed, KeyValueSortDescriptor(key: "a"))
        #expect(KeyValueSortDescriptor(key: "a") != KeyValueSortDescriptor(key: "b"))
        #expect(KeyValueSortDescriptor(key: "a") != KeyValueSortDescriptor(key: "a", ascending: false))
        #expect(KeyValueSortDescriptor(key: "a") != KeyValueSortDescriptor(key: "a", comparison: .localizedCompare))
        #expect(KeyValueSortDescriptor(key: nil) != KeyValueSortDescriptor(key: "a"))
    }

    /// Closures cannot be compared: a comparator is equal to its copies, and to another with the
    /// same name (as two descriptors naming the same selector are).
    @Test func comparatorsCompareByNameOrIdentity() throws {
        let unnamed = KeyValueSortDescriptor(key: "a") { _, _ in .orderedSame }
        let copy = unnamed
        expectEqualAndHashAlike(unnamed, copy)
        #expect(unnamed != KeyValueSortDescriptor(key: "a") { _, _ in .orderedSame })
        let first = KeyValueSortDescriptor.Comparator(name: "compareLength:") { _, _ in .orderedSame }
        let second = KeyValueSortDescriptor.Comparator(name: "compareLength:") { _, _ in .orderedAscending }
        expectEqualAndHashAlike(KeyValueSortDescriptor(key: "a", comparison: .comparator(first)),
                                KeyValueSortDescriptor(key: "a", comparison: .comparator(second)))
        let other = KeyValueSortDescriptor.Comparator(name: "compareWidth:") { _, _ in .orderedSame }
        #expect(KeyValueSortDescriptor(key: "a", comparison: .comparator(first))
                    != KeyValueSortDescriptor(key: "a", comparison: .comparator(other)))
        #expect(Set([unnamed, copy, KeyValueSortDescriptor(key: "a")]).count == 2)
    }

    @available(*, deprecated)
    @Test func bareClosureComparisonsStillBuild() throws {
        let descriptor = KeyValueSortDescriptor(key: "n", comparison: .comparator { a, b in
            (a as? Int ?? 0) > (b as? Int ?? 0) ? .orderedAscending : .orderedDescending
        })
        #expect(try [["n": 1], ["n": 3]].sorted(using: [descriptor]).map { $0["n"] } == [3, 1])
    }
}
