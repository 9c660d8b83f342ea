import Foundation

// Swift's arrays and sets as key-value collections: read as their own generic type, so that
// only the elements asked for are boxed.

extension KeyValueCollection where Self: RandomAccessCollection, Index == Int {
    package var keyValueCount: Int { count }
    package var keyValueIsUnordered: Bool { false }
    package static var keyValueElementType: Any.Type { Element.self }
    package var keyValueElements: [Any?] { map { flattenedElement($0) } }

    package func keyValueElements(at indexes: IndexSet) -> [Any?] {
        var result: [Any?] = []
        result.reserveCapacity(Swift.min(indexes.count, count))
        for offset in indexes {
            guard offset < count else { break }  // indexes ascend: none further exists
            guard offset >= 0 else { continue }
            result.append(flattenedElement(self[startIndex + offset]))
        }
        return result
    }

    package func keyValueMap(forKey key: String, depth: Int) throws -> Any {
        try map { try KeyValue.value(forKey: key, of: $0, depth: depth) ?? NSNull() } as [Any]
    }
}

extension Array: KeyValueCollection {}
extension ContiguousArray: KeyValueCollection {}
extension ArraySlice: KeyValueCollection {}

extension Set: KeyValueCollection {
    package var keyValueCount: Int { count }
    package var keyValueIsUnordered: Bool { true }
    package static var keyValueElementType: Any.Type { Element.self }
    package var keyValueElements: [Any?] { map { Self.member($0) } }

    package func keyValueElements(at indexes: IndexSet) -> [Any?] {
        guard let last = indexes.last, let first = indexes.first else { return [] }
        var result: [Any?] = []
        result.reserveCapacity(Swift.min(indexes.count, count))
        for (offset, element) in enumerated() {
            if offset > last { break }
            if offset >= first, indexes.contains(offset) { result.append(Self.member(element)) }
        }
        return result
    }

    package func keyValueContains(_ member: Any) -> Bool {
        if Element.self == AnyHashable.self || Element.self == ObjectIdentity.self {
            guard let flat = flattenOptional(member) else { return false }
            let hashable = hashableForSet(flat)
            if Element.self == AnyHashable.self { return contains(unsafeBitCast(hashable, to: Element.self)) }
            return (hashable.base as? Element).map { contains($0) } ?? false
        }
        if let typed = castWithoutBridging(member, to: Element.self) { return contains(typed) }
        guard let flat = flattenOptional(member), let typed = castWithoutBridging(flat, to: Element.self) else {
            return false
        }
        return contains(typed)
    }

    package func keyValueMap(forKey key: String, depth: Int) throws -> Any {
        var result = Set<AnyHashable>()
        for element in self {
            if let value = try KeyValue.value(forKey: key, of: Self.member(element), depth: depth) {
                result.insert(hashableForSet(value))
            }
        }
        return result
    }

    /// A member as an element: a set wrapper (`AnyHashable`, ``ObjectIdentity``) unwrapped,
    /// optionals flattened.
    @inline(__always)
    private static func member(_ element: Element) -> Any? {
        if Element.self == AnyHashable.self {
            return flattenOptional(unwrapSetMember(unsafeBitCast(element, to: AnyHashable.self)))
        }
        if Element.self == ObjectIdentity.self { return unsafeBitCast(element, to: ObjectIdentity.self).object }
        return flattenOptional(element)
    }
}
