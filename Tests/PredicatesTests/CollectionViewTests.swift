import Foundation
import KeyValueCoding
import Predicates
import Testing

/// One collection value and what the shared collection views must say about it.
struct CollectionCase: CustomTestStringConvertible, Sendable {
    let name: String
    /// Holds `3, 1, 2` (in this order when ordered).
    let make: @Sendable () -> Any
    let isUnordered: Bool
    var testDescription: String { name }
}

/// The elements as integers, in the view's order.
private func integers(_ elements: [Any?]) -> [Int?] {
    elements.map { element in element.flatMap { KeyValueNumber($0).map { Int($0.doubleValue) } } }
}

private let collectionCases: [CollectionCase] = [
    CollectionCase(name: "Array", make: { [3, 1, 2] }, isUnordered: false),
    CollectionCase(name: "ContiguousArray", make: { ContiguousArray([3, 1, 2]) }, isUnordered: false),
    CollectionCase(name: "ArraySlice", make: { [9, 3, 1, 2][1...] }, isUnordered: false),
    CollectionCase(name: "[Any]", make: { [3, 1, 2] as [Any] }, isUnordered: false),
    CollectionCase(name: "Set", make: { Set([3, 1, 2]) }, isUnordered: true),
    CollectionCase(name: "Set<AnyHashable>", make: { Set<AnyHashable>([3, 1, 2]) }, isUnordered: true),
    CollectionCase(name: "NSArray", make: { NSArray(array: [3, 1, 2]) }, isUnordered: false),
    CollectionCase(name: "NSMutableArray", make: { NSMutableArray(array: [3, 1, 2]) }, isUnordered: false),
    CollectionCase(name: "NSOrderedSet", make: { NSOrderedSet(array: [3, 1, 2]) }, isUnordered: false),
    CollectionCase(name: "NSMutableOrderedSet", make: { NSMutableOrderedSet(array: [3, 1, 2]) }, isUnordered: false),
    CollectionCase(name: "NSSet", make: { NSSet(array: [3, 1, 2]) }, isUnordered: true),
    CollectionCase(name: "NSMutableSet", make: { NSMutableSet(array: [3, 1, 2]) }, isUnordered: true),
]

/// The collection views that key-value coding shares with predicates, observing and undo
/// (`KeyValueCollection`, `KeyValueDictionary`), checked type by type; and predicates and
/// key-value coding reading the same collections the same way (Apple: both see arrays, ordered
/// sets and sets as to-many values, sets without an order).
@Suite("Shared collection views")
struct CollectionViewTests {
    @Test(arguments: collectionCases)
    func viewReadsCountElementsAndOrder(_ testCase: CollectionCase) throws {
        let collection = try #require(keyValueCollection(of: testCase.make()))
        #expect(collection.keyValueCount == 3)
        #expect(collection.keyValueIsUnordered == testCase.isUnordered)
        let elements = integers(collection.keyValueElements)
        #expect(elements.compactMap { $0 }.sorted() == [1, 2, 3])
        if !testCase.isUnordered { #expect(elements == [3, 1, 2]) }
        // Positions past the end are left out; a set's positions are those of its iteration.
        let picked = integers(collection.keyValueElements(at: IndexSet([0, 2, 7])))
        #expect(picked == [elements[0], elements[2]])
        #expect(collection.keyValueElements(at: IndexSet()).isEmpty)
    }

    @Test(arguments: collectionCases)
    func viewTellsMembership(_ testCase: CollectionCase) throws {
        let collection = try #require(keyValueCollection(of: testCase.make()))
        #expect(collection.keyValueContains(2))
        #expect(!collection.keyValueContains(7))
        #expect(!collection.keyValueContains("2"))
    }

    @Test(arguments: collectionCases)
    func predicatesAndKeyValueCodingAgree(_ testCase: CollectionCase) throws {
        let value = testCase.make()
        let collection = try #require(keyValueCollection(of: value))
        let count = try #require(try KeyValue.value(forKeyPath: "@count", of: value) as? Int)
        #expect(count == collection.keyValueCount)
        #expect(try KeyValuePredicate(format: "SELF.@count == 3").evaluate(with: value))
        #expect(try KeyValuePredicate(format: "2 IN SELF").evaluate(with: value) == collection.keyValueContains(2))
        #expect(try KeyValuePredicate(format: "7 IN SELF").evaluate(with: value) == collection.keyValueContains(7))
        #expect(try KeyValuePredicate(format: "ANY SELF > 2").evaluate(with: value))
        #expect(try KeyValuePredicate(format: "ALL SELF > 0").evaluate(with: value))
        // Unordered: equal to the same members in any order; ordered: only in its own order.
        #expect(try KeyValuePredicate(format: "SELF == {1, 2, 3}").evaluate(with: value) == testCase.isUnordered)
        #expect(try KeyValuePredicate(format: "SELF == {3, 1, 2}").evaluate(with: value))
        // Key-value coding maps keys over an unordered collection into a set.
        let mapped = try KeyValue.value(forKeyPath: "@distinctUnionOfObjects.self", of: value)
        #expect((mapped is Set<AnyHashable>) == testCase.isUnordered)
        #expect(try KeyValue.value(forKeyPath: "@sum.self", of: value).flatMap { KeyValueNumber($0) }?.doubleValue == 6)
    }

    @Test func optionalElementsAreFlattened() throws {
        let values: [Int?] = [1, nil, 3]
        let collection = try #require(keyValueCollection(of: values))
        #expect(collection.keyValueCount == 3)
        #expect(integers(collection.keyValueElements) == [1, nil, 3])
        #expect(collection.keyValueElements(at: IndexSet(integer: 1)).count == 1)
        #expect(collection.keyValueElements(at: IndexSet(integer: 1))[0] == nil)
        #expect(collection.keyValueContains(3))
        #expect(try KeyValuePredicate(format: "ANY SELF == nil").evaluate(with: values))
    }

    @Test func setsOfObjectsByIdentityGiveTheObjects() throws {
        final class Member {}
        let first = Member(), second = Member()
        let members: Set<AnyHashable> = [AnyHashable(ObjectIdentity(first)), AnyHashable(ObjectIdentity(second))]
        let collection = try #require(keyValueCollection(of: members))
        let elements = collection.keyValueElements.compactMap { $0.map { $0 as AnyObject } }
        #expect(elements.count == 2)
        #expect(elements.contains { $0 === first } && elements.contains { $0 === second })
        #expect(collection.keyValueContains(first))
        #expect(!collection.keyValueContains(Member()))
    }

    @Test func stringsAndOtherValuesAreNotCollections() {
        #expect(keyValueCollection(of: "abc") == nil)
        #expect(keyValueCollection(of: 3) == nil)
        #expect(keyValueCollection(of: ["a": 1]) == nil)
        #expect(keyValueDictionary(of: [1, 2]) == nil)
        #expect(keyValueDictionary(of: "abc") == nil)
    }

    @Test func swiftDictionaryGivesKeysValuesAndEntries() throws {
        let values: [String: Int?] = ["a": 1, "b": nil]
        let dictionary = try #require(keyValueDictionary(of: values))
        #expect(dictionary.keyValueCount == 2)
        #expect(Set(dictionary.keyValueAllKeys.compactMap { $0 as? String }) == ["a", "b"])
        // A Foundation dictionary cannot hold nil: `allValues` leaves it out, the entries keep it.
        #expect(dictionary.keyValueAllValues.compactMap { $0 as? Int } == [1])
        let entries = dictionary.keyValueEntries
        #expect(entries.count == 2)
        #expect(entries.first { ($0.key as? String) == "b" }.map { $0.value == nil } == true)
        #expect(dictionary.keyValueEntry(forKey: "a").flatMap { $0 as? Int } == 1)
        #expect(dictionary.keyValueEntry(forKey: "z") == nil)
        #expect(dictionary.keyValueEntry(forKey: 4) == nil)
    }

    @Test(arguments: [false, true])
    func foundationDictionaryGivesKeysValuesAndEntries(mutable: Bool) throws {
        let value: NSDictionary = mutable ? NSMutableDictionary(dictionary: ["a": 1, "b": 2])
                                          : NSDictionary(dictionary: ["a": 1, "b": 2])
        let dictionary = try #require(keyValueDictionary(of: value))
        #expect(dictionary.keyValueCount == 2)
        #expect(Set(dictionary.keyValueAllKeys.compactMap { $0 as? String }) == ["a", "b"])
        #expect(dictionary.keyValueAllValues.compactMap { ($0 as? NSNumber)?.intValue ?? ($0 as? Int) }.sorted() == [1, 2])
        #expect(dictionary.keyValueEntries.count == 2)
        #expect(dictionary.keyValueEntry(forKey: "b").flatMap { $0.flatMap { KeyValueNumber($0)?.doubleValue } } == 2)
        #expect(dictionary.keyValueEntry(forKey: "z") == nil)
    }

    @Test func predicatesAndKeyValueCodingAgreeOnDictionaries() throws {
        let values: [String: Int] = ["a": 1, "b": 2]
        let dictionary = try #require(keyValueDictionary(of: values))
        #expect(try KeyValue.value(forKey: "@count", of: values) as? Int == dictionary.keyValueCount)
        #expect(try KeyValue.value(forKey: "b", of: values) as? Int == 2)
        #expect(try KeyValuePredicate(format: "SELF['b'] == 2").evaluate(with: values))
        #expect(try KeyValuePredicate(format: "SELF[SIZE] == 2").evaluate(with: values))
        // As a collection, a dictionary is its values.
        #expect(try KeyValuePredicate(format: "2 IN SELF").evaluate(with: values))
        #expect(try !KeyValuePredicate(format: "'b' IN SELF").evaluate(with: values))
    }
}
