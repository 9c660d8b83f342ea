import Foundation
import Testing
@testable import KeyValueCoding

private final class FoundationEntry: KeyValueCodable {
    var name: String
    var size: Int
    init(_ name: String, _ size: Int) {
        self.name = name
        self.size = size
    }
}

private final class FoundationHolder: KeyValueCodable {
    var ordered = NSOrderedSet(array: [FoundationEntry("a", 1), FoundationEntry("b", 2), FoundationEntry("c", 3)])
    var list = NSMutableArray(array: [FoundationEntry("x", 10), FoundationEntry("y", 20)])
    var unordered = NSSet(array: [FoundationEntry("p", 5), FoundationEntry("q", 6)])
}

/// Apple: `valueForKey:` on an `NSArray`, `NSSet` or `NSOrderedSet` returns the collection of
/// each element's value for the key; collection operators apply to all three.
@Suite("Foundation collections (NSArray, NSOrderedSet, NSSet)")
struct FoundationCollectionTests {
    @Test func keysMapOverTheElements() throws {
        let holder = FoundationHolder()
        #expect(try holder.value(forKeyPath: "ordered.name") as? [String] == ["a", "b", "c"])
        #expect(try holder.value(forKeyPath: "list.size") as? [Int] == [10, 20])
        #expect(try holder.value(forKeyPath: "unordered.name") as? Set<AnyHashable> == ["p", "q"])
    }

    @Test func collectionOperatorsApply() throws {
        let holder = FoundationHolder()
        #expect(try holder.value(forKeyPath: "ordered.@count") as? Int == 3)
        #expect(try holder.value(forKeyPath: "ordered.@sum.size") as? Int == 6)
        #expect(try holder.value(forKeyPath: "ordered.@max.name") as? String == "c")
        #expect(try holder.value(forKeyPath: "list.@avg.size") as? Double == 15)
        #expect(try holder.value(forKeyPath: "unordered.@min.size") as? Int == 5)
        #expect(try holder.value(forKeyPath: "unordered.@count") as? Int == 2)
    }

    @Test func typedReadingsOfCounts() throws {
        let holder = FoundationHolder()
        guard case .number(let count) = try KeyValuePath("ordered.@count").reading(of: holder) else {
            Issue.record("expected a number")
            return
        }
        #expect(count == .integer(3))
    }
}
