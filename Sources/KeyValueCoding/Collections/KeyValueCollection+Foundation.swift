import Foundation

// Foundation's collections (`NSArray`, `NSOrderedSet` — Core Data's ordered to-many type —
// and `NSSet`, with their mutable subclasses) are read by key-value coding like Swift's: keys
// map over their elements and the collection operators apply.

/// An ordered Foundation collection read by position (`NSArray`, `NSOrderedSet`).
protocol IndexedFoundationCollection: KeyValueCollection {
    var count: Int { get }
    func object(at index: Int) -> Any
}

extension IndexedFoundationCollection {
    package var keyValueCount: Int { count }
    package var keyValueIsUnordered: Bool { false }
    package static var keyValueElementType: Any.Type { Any.self }
    // Element by element: iterating or `allObjects` would bridge nested collections whole
    // (recursively, before any nesting limit could stop it).
    package var keyValueElements: [Any?] { (0..<count).map { flattenOptional(object(at: $0)) } }

    package func keyValueElements(at indexes: IndexSet) -> [Any?] {
        positions(indexes, count: count).map { flattenOptional(object(at: $0)) }
    }
}

extension NSArray: IndexedFoundationCollection {}
extension NSOrderedSet: IndexedFoundationCollection {}

extension NSSet: KeyValueCollection {
    package var keyValueCount: Int { count }
    package var keyValueIsUnordered: Bool { true }
    package static var keyValueElementType: Any.Type { Any.self }
    package var keyValueElements: [Any?] {
        var result: [Any?] = []
        result.reserveCapacity(count)
        let enumerator = objectEnumerator()
        while let member = enumerator.nextObject() { result.append(flattenOptional(member)) }
        return result
    }

    package func keyValueElements(at indexes: IndexSet) -> [Any?] {
        let members = allObjects
        return positions(indexes, count: members.count).map { flattenOptional(members[$0]) }
    }

    package func keyValueContains(_ member: Any) -> Bool {
        // A Swift collection is never a member here, and asking would bridge it.
        guard let flat = flattenOptional(member), !isSwiftCollection(type(of: flat)) else { return false }
        return contains(flat)
    }
}

/// The positions in `indexes` below `count` (indexes ascend, so the first one past the end
/// ends the walk).
private func positions(_ indexes: IndexSet, count: Int) -> [Int] {
    var result: [Int] = []
    for index in indexes {
        guard index < count else { break }
        if index >= 0 { result.append(index) }
    }
    return result
}
