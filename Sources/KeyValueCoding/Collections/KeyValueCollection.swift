import Foundation

/// An array or set, seen by key-value coding without knowing its element type.
protocol KeyValueCollection {
    /// The elements, as `Any?` (optional elements flattened).
    var keyValueElements: [Any?] { get }
    /// Whether the collection is unordered (a set): operators then give sets.
    var keyValueIsUnordered: Bool { get }
    /// The number of elements.
    var keyValueCount: Int { get }
    /// Each element's value for `key`: an array (with `NSNull` for nil) or a set. `depth` counts
    /// the collections already entered.
    func keyValueMap(forKey key: String, depth: Int) throws -> Any
    /// Fast path for `@sum` / `@avg` of one stored `Double` or `Int` property of objects of
    /// one class: reads each field directly. Returns false, having added nothing, when it
    /// does not apply.
    func keyValueSumStoredNumbers(forKey key: String, into accumulator: inout NumericAccumulator) -> Bool
}

/// An ordered collection (`Array`, `ContiguousArray`): keys map over the elements in order.
protocol OrderedKeyValueCollection: KeyValueCollection, RandomAccessCollection {}

extension OrderedKeyValueCollection {
    var keyValueElements: [Any?] { map { flattenOptional($0) } }
    var keyValueIsUnordered: Bool { false }
    var keyValueCount: Int { count }
    func keyValueMap(forKey key: String, depth: Int) throws -> Any {
        try map { try KeyValue.value(forKey: key, of: $0, depth: depth) ?? NSNull() } as [Any]
    }
}

extension Array: OrderedKeyValueCollection {}
extension ContiguousArray: OrderedKeyValueCollection {}

extension Set: KeyValueCollection {
    var keyValueElements: [Any?] { map { unwrapSetMember(AnyHashable($0)) } }
    var keyValueIsUnordered: Bool { true }
    var keyValueCount: Int { count }
    func keyValueMap(forKey key: String, depth: Int) throws -> Any {
        var result = Set<AnyHashable>()
        for element in self {
            if let value = try KeyValue.value(forKey: key, of: element, depth: depth) {
                result.insert(hashableForSet(value))
            }
        }
        return result
    }
}

/// A class instance held by identity, so that objects that are not `Hashable` can be members
/// of the sets that key-value coding returns (Apple's `NSSet` compares objects by identity
/// unless they override `isEqual:`).
public struct ObjectIdentity: Hashable, @unchecked Sendable {
    // @unchecked: only the identity is used by Hashable; the object is handed back as it is.

    /// The object.
    public let object: AnyObject

    /// Wraps an object.
    public init(_ object: AnyObject) { self.object = object }

    public static func == (lhs: ObjectIdentity, rhs: ObjectIdentity) -> Bool {
        lhs.object === rhs.object
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(object))
    }
}

/// Makes a set member of `value`: itself when `Hashable`, otherwise its identity (objects),
/// otherwise its type and description (so that it never equals a value of another type).
func hashableForSet(_ value: Any) -> AnyHashable {
    let kind = ValueKind.of(type(of: value))
    if let hashable = kind.hashable { return hashable(value) }
    if kind.isClass { return AnyHashable(ObjectIdentity(value as AnyObject)) }
    return AnyHashable(DescribedValue(type: ObjectIdentifier(type(of: value)), description: String(describing: value)))
}

/// A value that is not `Hashable`, compared by its type and description.
private struct DescribedValue: Hashable {
    var type: ObjectIdentifier
    var description: String
}

/// Unwraps a set member made by ``hashableForSet(_:)``.
func unwrapSetMember(_ member: AnyHashable) -> Any {
    if let identity = member.base as? ObjectIdentity { return identity.object }
    return member.base
}
