import Foundation

/// An array, ordered set or set, seen without knowing its element type: the one view of
/// collections that every layer (key-value coding, predicates, observing, undo) shares.
///
/// Swift's `Array`, `ContiguousArray`, `ArraySlice` and `Set`, and Foundation's `NSArray`,
/// `NSOrderedSet` and `NSSet` (with their mutable subclasses) conform. Dictionaries are seen
/// through ``KeyValueDictionary`` instead.
///
/// Find the view of a value held in an `Any` with ``keyValueCollection(of:)``: it classifies the
/// value's type once (a cached lookup of a few nanoseconds), never by casting the value to a
/// class or class-bound existential (on Linux that bridges a Swift collection through
/// Foundation, which can overflow the stack for some members, such as `Decimal`).
///
/// ## Adding a collection type
///
/// A later layer adds its own collection (for example a lazy to-many relationship that fetches
/// its objects on first use) by conforming one type: implement ``keyValueCount``,
/// ``keyValueElements``, ``keyValueElements(at:)``, ``keyValueIsUnordered``,
/// ``keyValueContains(_:)`` and ``keyValueElementType``; mapping keys over the elements and the
/// collection operators then work through the default implementations, and
/// ``keyValueCollection(of:)`` finds the type by its conformance (no registration needed).
/// A lazy collection may fault its objects in ``keyValueElements``, but ``keyValueCount``
/// should not need to.
///
/// Thread safety: the conforming values are not shared mutable state; a reference type
/// (`NSMutableArray`) must not be changed while it is read.
package protocol KeyValueCollection {
    /// The number of elements.
    ///
    /// - Complexity: O(1) for the built-in types.
    var keyValueCount: Int { get }

    /// The elements, in the collection's order (iteration order for a set), as `Any?`: nested
    /// optionals are flattened (a `nil` element is `nil`), set wrappers (`AnyHashable`,
    /// ``ObjectIdentity``) are unwrapped, and `NSNull` stays `NSNull`.
    ///
    /// - Complexity: O(n).
    var keyValueElements: [Any?] { get }

    /// The elements at the positions `indexes` that exist (positions past the end are left
    /// out), boxed as ``keyValueElements`` boxes them, without boxing the other elements.
    ///
    /// For a set the positions are those of its iteration order.
    ///
    /// - Complexity: O(k) for k indexes in an ordered collection; O(n) for a set.
    func keyValueElements(at indexes: IndexSet) -> [Any?]

    /// Whether the collection has no order (a set): its collection operators give sets, and
    /// predicates compare it with another collection as sets are compared.
    var keyValueIsUnordered: Bool { get }

    /// Whether `member` is an element: by `Hashable` equality for values, by identity for
    /// objects that are not `Hashable` (as ``hashableForSet(_:)`` makes set members).
    ///
    /// - Complexity: O(1) on average for a Swift `Set` or `NSSet`; O(n) otherwise.
    func keyValueContains(_ member: Any) -> Bool

    /// The type of the elements (`Any` for Foundation's collections), for editing proxies that
    /// convert new elements.
    static var keyValueElementType: Any.Type { get }

    /// Each element's value for `key`: an array (with `NSNull` for nil) or a set for an
    /// unordered collection. `depth` counts the collections already entered.
    ///
    /// The default implementation maps over ``keyValueElements``.
    func keyValueMap(forKey key: String, depth: Int) throws -> Any

    /// Fast path for `@sum` / `@avg` of one stored `Double` or `Int` property of objects of one
    /// class: reads each field directly. Returns false, having added nothing, when it does not
    /// apply (the default).
    func keyValueSumStoredNumbers(forKey key: String, into accumulator: inout NumericAccumulator) -> Bool
}

extension KeyValueCollection {
    package func keyValueMap(forKey key: String, depth: Int) throws -> Any {
        if keyValueIsUnordered {
            var result = Set<AnyHashable>()
            for element in keyValueElements {
                if let value = try KeyValue.value(forKey: key, of: element, depth: depth) {
                    result.insert(hashableForSet(value))
                }
            }
            return result
        }
        return try keyValueElements.map { try KeyValue.value(forKey: key, of: $0, depth: depth) ?? NSNull() } as [Any]
    }

    package func keyValueSumStoredNumbers(forKey key: String, into accumulator: inout NumericAccumulator) -> Bool {
        false
    }

    package func keyValueContains(_ member: Any) -> Bool {
        let target = hashableForSet(flattenOptional(member) ?? NSNull())
        return keyValueElements.contains { element in hashableForSet(element ?? NSNull()) == target }
    }
}

/// The collection view of `value`, or nil when it is not an array, ordered set or set (strings
/// and dictionaries are not).
///
/// - Complexity: O(1): the value's type is classified once and cached.
/// - Thread safety: safe from any thread.
@inline(__always)
package func keyValueCollection(of value: Any) -> (any KeyValueCollection)? {
    ValueKind.of(type(of: value)).collection?(value)
}

/// The dictionary view of `value`, or nil when it is not a `Dictionary` or `NSDictionary`.
///
/// - Complexity: O(1): the value's type is classified once and cached.
/// - Thread safety: safe from any thread.
@inline(__always)
package func keyValueDictionary(of value: Any) -> (any KeyValueDictionary)? {
    ValueKind.of(type(of: value)).dictionary?(value)
}

/// A generic element as `Any?`, flattened, without nesting an existential in another when the
/// element type is itself `Any` or `Any?` (the elements of `[Any]` and `[Any?]`).
@inline(__always)
func flattenedElement<T>(_ element: T) -> Any? {
    if T.self == Any.self { return flattenOptional(unsafeBitCast(element, to: Any.self)) }
    if T.self == Optional<Any>.self { return flattenOptional(unsafeBitCast(element, to: Optional<Any>.self)) }
    return flattenOptional(element)
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
    // `NSDecimalNumber.hash` recurses without end in swift-corelibs-foundation: hash its value.
    if let decimal = decimalOfDecimalNumber(value) { return AnyHashable(decimal) }
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

/// The `Decimal` of an `NSDecimalNumber` (compared by metadata: no bridging cast), else nil.
package func decimalOfDecimalNumber(_ value: Any) -> Decimal? {
    guard ObjectIdentifier(type(of: value)) == ObjectIdentifier(NSDecimalNumber.self) else { return nil }
    return (value as AnyObject as? NSDecimalNumber)?.decimalValue
}
