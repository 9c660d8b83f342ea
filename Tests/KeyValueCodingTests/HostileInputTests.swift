import Foundation
import Testing
import KeyValueCoding

/// Regressions found by attacking the layer with hostile input.
@Suite("Hostile input")
struct HostileInputTests {
    final class Owner: Sendable {}
    static let sharedOwner = Owner()

    final class Node: KeyValueCodable {
        weak var friend: Node?
        unowned var owner: Owner = HostileInputTests.sharedOwner
        let constant = 42
        let constantName = "fixed"
        var name = "n"
        var ints: [Int] = [1, 2, 3]
        var maybe: Int?
        var anything: Any = [1, 2]
        var small: Int = 0
        var huge: UInt64 = 0
        var decimal = Decimal(0)
        var float: Float = 0

        class var computedKeys: [String: AnyKeyPath] { ["friendName": \Node.friend?.name] }
    }

    @Test func weakAndUnownedFieldsAreNotKeys() throws {
        let a = Node(), b = Node()
        a.friend = b
        #expect(throws: KeyValueCodingError.self) { try a.value(forKey: "friend") }
        #expect(throws: KeyValueCodingError.self) { try a.setValue(Node(), forKey: "friend") }
        #expect(throws: KeyValueCodingError.self) { try a.setValue(Owner(), forKey: "owner") }
        #expect(a.friend === b)
        // Listed as computed keys, they work through their key paths.
        #expect(try a.value(forKey: "friendName") as? String == "n")
        #expect(try a.value(forKeyPath: "friendName") as? String == "n")
    }

    @Test func letConstantsAreReadOnly() throws {
        let node = Node()
        #expect(try node.value(forKey: "constant") as? Int == 42)
        #expect(throws: KeyValueCodingError.readOnlyKey("constant", type: String(reflecting: Node.self))) {
            try node.setValue(7, forKey: "constant")
        }
        #expect(throws: KeyValueCodingError.self) { try node.setValue("changed", forKey: "constantName") }
        #expect(node.constant == 42 && node.constantName == "fixed")
    }

    @Test func proxyIndexesOutOfRangeThrow() throws {
        let node = Node()
        let proxy = try node.mutableArrayValue(forKey: "ints")
        #expect(throws: KeyValueCodingError.self) { try proxy.remove(at: -1) }
        #expect(throws: KeyValueCodingError.self) { try proxy.insert(9, at: -1) }
        #expect(throws: KeyValueCodingError.self) { try proxy.replace(at: -1, with: 9) }
        #expect(throws: KeyValueCodingError.self) { try proxy.insert(9, at: Int.max) }
        #expect(throws: KeyValueCodingError.self) { try proxy.remove(at: Int.max) }
        #expect(throws: KeyValueCodingError.self) { try proxy.move(from: -1, to: 0) }
        try proxy.remove(at: IndexSet())  // empty: nothing to do
        try proxy.insert([], at: IndexSet())
        #expect(node.ints == [1, 2, 3])
    }

    @Test func proxiesNeedArrayProperties() throws {
        let node = Node()
        #expect(throws: KeyValueCodingError.self) { try node.mutableArrayValue(forKey: "maybe") }
        #expect(throws: KeyValueCodingError.self) { try node.mutableArrayValue(forKey: "anything") }
        #expect(throws: KeyValueCodingError.self) { try node.mutableSetValue(forKey: "ints") }
    }

    @Test func aggregatesDoNotTrapOnOverflowOrInfinity() throws {
        #expect(try KeyValue.value(forKeyPath: "@sum.self", of: [Int.max, true] as [Any]) as? Double == Double(Int.max) + 1)
        #expect((try KeyValue.value(forKeyPath: "@sum.self", of: [Decimal(1), Double.infinity] as [Any]) as? Double)?
                    .isInfinite == true)
        #expect(try KeyValue.value(forKeyPath: "@max.self", of: [Decimal(1), Double.infinity] as [Any]) as? Double
                == .infinity)
        #expect(try KeyValue.value(forKeyPath: "@max.self", of: [Decimal(1), 1e300] as [Any]) as? Double == 1e300)
        #expect(try KeyValue.value(forKeyPath: "@sum.self", of: [Decimal(1), 1e300] as [Any]) as? Double == 1e300)
        #expect(try KeyValue.value(forKeyPath: "@sum.self", of: [UInt64(1), UInt64(2)]) as? Int == 3)
    }

    @Test func decimalsConvertExactlyIntoIntegers() throws {
        let node = Node()
        try node.setValue(Decimal(string: "9007199254740993")!, forKey: "small")
        #expect(node.small == 9_007_199_254_740_993)
        try node.setValue(Decimal(string: "18446744073709551615")!, forKey: "huge")
        #expect(node.huge == UInt64.max)
        try node.setValue(Decimal(string: "-2.7")!, forKey: "small")
        #expect(node.small == -2)
        #expect(throws: KeyValueCodingError.self) { try node.setValue(Decimal(string: "1e30")!, forKey: "small") }
    }

    @Test func overflowIntoDecimalAndFloatThrows() throws {
        let node = Node()
        #expect(throws: KeyValueCodingError.self) { try node.setValue(1e300, forKey: "decimal") }
        #expect(throws: KeyValueCodingError.self) { try node.setValue(1e300, forKey: "float") }
        #expect(node.decimal == 0 && node.float == 0)
        try node.setValue(Double.infinity, forKey: "float")  // infinity stays infinity
        #expect(node.float == .infinity)
    }

    @Test func distinctUnionKeepsValuesOfOtherTypes() throws {
        let values: [Any] = [Point(x: 1, y: 1), "Point(x: 1, y: 1)"]
        let distinct = try #require(try KeyValue.value(forKeyPath: "@distinctUnionOfObjects.self", of: values) as? [Any])
        #expect(distinct.count == 2)
    }

    @Test func deeplyNestedCollectionsThrowInsteadOfOverflowingTheStack() throws {
        var value: Any = 1
        for _ in 0..<10_000 { value = [value] }
        #expect(throws: KeyValueCodingError.nestedTooDeeply(key: "description", depth: 200)) {
            try KeyValue.value(forKeyPath: "description", of: value)
        }
    }
}
