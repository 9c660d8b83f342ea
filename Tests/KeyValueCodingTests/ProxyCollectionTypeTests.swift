import Foundation
import Testing
import KeyValueCoding

private final class ProxyShelf: KeyValueCodable {
    var maybeItems: [Int]? = [1, 2]
    var maybeLabels: Set<String>? = ["a"]
    var contiguous = ContiguousArray([1, 2])
    var foundationSet = NSSet(array: ["a"])
    var foundationArray = NSArray(array: [1])
}

/// Apple: `mutableArrayValueForKey:` edits an array property and `mutableSetValueForKey:` a set
/// property; here the proxies accept a Swift `Array` or `Set`, optional or not, told from the
/// property's declared type through the shared collection views.
@Suite("Collection types of the mutable proxies")
struct ProxyCollectionTypeTests {
    @Test func optionalArrayPropertyIsEdited() throws {
        let shelf = ProxyShelf()
        let items = try shelf.mutableArrayValue(forKey: "maybeItems")
        try items.append(3)
        #expect(shelf.maybeItems == [1, 2, 3])
        #expect(items.count == 3)
        #expect(throws: KeyValueCodingError.self) { try items.append("three") }
    }

    @Test func optionalSetPropertyIsEdited() throws {
        let shelf = ProxyShelf()
        let labels = try shelf.mutableSetValue(forKey: "maybeLabels")
        #expect(labels.members == [AnyHashable("a")])
        try labels.insert("b")
        #expect(shelf.maybeLabels == ["a", "b"])
        #expect(throws: KeyValueCodingError.self) { try labels.insert(AnyHashable(4)) }
        #expect(shelf.maybeLabels == ["a", "b"])
    }

    @Test(arguments: ["contiguous", "foundationArray", "foundationSet", "maybeLabels"])
    func arrayProxyRejectsOtherTypes(key: String) {
        #expect(throws: KeyValueCodingError.self) { _ = try ProxyShelf().mutableArrayValue(forKey: key) }
    }

    @Test(arguments: ["contiguous", "foundationArray", "foundationSet", "maybeItems"])
    func setProxyRejectsOtherTypes(key: String) {
        #expect(throws: KeyValueCodingError.self) { _ = try ProxyShelf().mutableSetValue(forKey: key) }
    }
}
