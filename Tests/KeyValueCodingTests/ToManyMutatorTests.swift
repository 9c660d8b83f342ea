import Foundation
import Testing
@testable import KeyValueCoding

/// A class that declares element-wise mutators: they log each call, refuse negative numbers
/// and store names capitalised.
final class Shelf: KeyValueCodable {
    var numbers: [Int] = []
    var names: [String] = []
    var tags: Set<String> = []
    var calls: [String] = []
    var log: [String] = []

    struct Refused: Error, Equatable {}

    func keyValueWillChange(_ event: KeyValueChangeEvent) {
        log.append("will \(event.key) \(event.kind) \(event.indexes.map { Array($0) } ?? [])")
    }
    func keyValueDidChange(_ event: KeyValueChangeEvent) {
        log.append((event.isCancelled ? "cancelled " : "did ") + event.key)
    }

    class var toManyMutators: [String: KeyValueToManyMutators] {
        [
            "numbers": .array(KeyValueArrayMutators(Shelf.self, Int.self,
                insert: { shelf, number, index in
                    if number < 0 { throw Refused() }
                    shelf.calls.append("insert \(number) at \(index)")
                    shelf.numbers.insert(number, at: index)
                },
                remove: { shelf, index in
                    shelf.calls.append("remove at \(index)")
                    shelf.numbers.remove(at: index)
                })),
            "names": .array(KeyValueArrayMutators(Shelf.self, String.self,
                insert: { shelf, name, index in shelf.names.insert(name.capitalized, at: index) },
                remove: { shelf, index in shelf.names.remove(at: index) },
                replace: { shelf, index, name in
                    shelf.calls.append("replace at \(index)")
                    shelf.names[index] = name.capitalized
                })),
            "tags": .set(KeyValueSetMutators(Shelf.self, String.self,
                add: { shelf, tag in
                    shelf.calls.append("add \(tag)")
                    shelf.tags.insert(tag)
                },
                remove: { shelf, tag in
                    shelf.calls.append("remove \(tag)")
                    shelf.tags.remove(tag)
                })),
        ]
    }
}

@Suite("Declared to-many mutators (insertObject:in<Key>AtIndex: and relatives)")
struct ToManyMutatorTests {
    @Test func theArrayProxyCallsTheIndexedMutators() throws {
        let shelf = Shelf()
        let numbers = try shelf.mutableArrayValue(forKey: "numbers")
        try numbers.append(1)
        try numbers.insert([7, 8], at: IndexSet([0, 2]))
        #expect(shelf.numbers == [7, 1, 8])
        try numbers.remove(at: IndexSet([0, 2]))
        #expect(shelf.numbers == [1])
        #expect(shelf.calls == ["insert 1 at 0", "insert 7 at 0", "insert 8 at 2", "remove at 2", "remove at 0"])
        // One notified change per element, as Apple's proxies call an indexed accessor per element.
        #expect(shelf.log == ["will numbers insertion [0]", "did numbers",
                              "will numbers insertion [0]", "did numbers",
                              "will numbers insertion [2]", "did numbers",
                              "will numbers removal [2]", "did numbers",
                              "will numbers removal [0]", "did numbers"])
    }

    @Test func aMutatorCanTransformAValue() throws {
        let shelf = Shelf()
        try shelf.insertValue("ada", at: 0, inPropertyWithKey: "names")
        try shelf.replaceValue(at: 0, inPropertyWithKey: "names", with: "grace")
        #expect(shelf.names == ["Grace"])
        #expect(shelf.calls == ["replace at 0"])
    }

    @Test func aMutatorCanRefuseAValue() throws {
        let shelf = Shelf()
        #expect(throws: Shelf.Refused.self) { try shelf.insertValue(-1, at: 0, inPropertyWithKey: "numbers") }
        #expect(shelf.numbers.isEmpty)
        // The announced change is cancelled: the hooks hear it, observers would not.
        #expect(shelf.log == ["will numbers insertion [0]", "cancelled numbers"])
        // A value of the wrong type is refused before any mutator runs or anyone is told.
        #expect(throws: KeyValueCodingError.self) { try shelf.insertValue("x", at: 0, inPropertyWithKey: "numbers") }
        #expect(shelf.log.count == 2)
        #expect(shelf.calls.isEmpty)
    }

    @Test func replacementWithoutAReplaceMutatorRemovesThenInserts() throws {
        let shelf = Shelf()
        try shelf.insertValue(1, inPropertyWithKey: "numbers")
        shelf.calls = []
        try shelf.replaceValue(at: 0, inPropertyWithKey: "numbers", with: 5.0)  // Double → Int
        #expect(shelf.numbers == [5])
        #expect(shelf.calls == ["remove at 0", "insert 5 at 0"])
    }

    @Test func theSetProxyCallsTheUnorderedMutators() throws {
        let shelf = Shelf()
        let tags = try shelf.mutableSetValue(forKey: "tags")
        try tags.insert("a")
        try tags.union(["a", "b"])
        try tags.remove("a")
        #expect(shelf.tags == ["b"])
        #expect(shelf.calls == ["add a", "add b", "remove a"])
        try shelf.insertValue("c", inPropertyWithKey: "tags")
        #expect(shelf.tags == ["b", "c"])
    }

    @Test func entryPointsCheckIndexesAndKeys() throws {
        let shelf = Shelf()
        #expect(throws: KeyValueCodingError.self) { try shelf.removeValue(at: 0, fromPropertyWithKey: "numbers") }
        #expect(throws: KeyValueCodingError.self) { try shelf.insertValue(1, at: 2, inPropertyWithKey: "numbers") }
        #expect(throws: KeyValueCodingError.self) { try shelf.insertValue(1, at: 0, inPropertyWithKey: "missing") }
        #expect(shelf.calls.isEmpty)
    }

    @Test func accessorPropertiesCarryMutators() throws {
        final class Box: KeyValueKeyTableProviding, @unchecked Sendable {
            // @unchecked: used on one thread.
            var items: [Int] = []
            var keyValueKeyTable: KeyValueKeyTable { Self.table }
            static let table = KeyValueKeyTable(properties: [
                KeyValueProperty(key: "items", type: [Int].self, get: { ($0 as! Box).items },
                                 set: { ($0 as! Box).items = $1 },
                                 mutators: .array(KeyValueArrayMutators(Box.self, Int.self,
                                     insert: { box, item, index in box.items.insert(item * 10, at: index) },
                                     remove: { box, index in box.items.remove(at: index) }))),
            ])
        }
        let box = Box()
        try box.insertValue(4, inPropertyWithKey: "items")
        #expect(box.items == [40])
    }
}

private final class NumberBag: KeyValueCodable {
    var numbers: Set<Int> = []
}

@Suite("Set proxies convert members")
struct SetProxyConversionTests {
    @Test func numbersBridgeIntoASetOfIntegers() throws {
        let bag = NumberBag()
        try bag.insertValue(3.0, inPropertyWithKey: "numbers")
        try bag.mutableSetValue(forKey: "numbers").insert(AnyHashable(Int8(4)))
        #expect(bag.numbers == [3, 4])
    }

    @Test func aMemberOfTheWrongTypeIsNamed() {
        let bag = NumberBag()
        #expect {
            try bag.insertValue("five", inPropertyWithKey: "numbers")
        } throws: { error in
            String(describing: error).contains("String")
        }
        #expect(bag.numbers.isEmpty)
    }
}
