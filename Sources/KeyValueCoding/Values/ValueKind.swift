import Foundation
import ObjectGraphInternals

/// What key-value coding needs to know about one dynamic type seen through `Any`, found once
/// per type with dynamic casts and then reused.
///
/// Dynamic casts to protocol types cost 50–150 ns each on Linux; key-value coding looks at
/// every value it passes through, so it asks this cache (a few nanoseconds) instead.
///
/// Thread safety: immutable; the cache is thread-safe.
final class ValueKind: @unchecked Sendable, TypeCacheEntry {
    // @unchecked: every stored property is a `let`; the closures capture only metatypes.

    enum Category {
        case codableObject
        /// An `AnyHashable` or an ``ObjectIdentity``: key-value coding sees what it wraps.
        case wrapper
        case optional
        case number
        case null
        /// A `String`, `Substring` or `NSString`: reads `length` and `description`.
        case string
        case collection
        case dictionary
        case other
    }

    let type: Any.Type
    @usableFromInline var cachedType: Any.Type { type }
    let category: Category
    /// Reads a key of a `KeyValueCodable` object held in the `Any`.
    let readKey: ((Any, String) throws -> Any?)?
    /// The `KeyValueCodable` object held in the `Any` (an upcast, not a dynamic cast: a cast
    /// to a class-bound existential bridges Swift collections through Foundation on Linux).
    let codableObject: ((Any) -> any KeyValueCodable)?
    /// The array or set held in the `Any`.
    let collection: ((Any) -> any KeyValueCollection)?
    /// The dictionary held in the `Any`.
    let dictionary: ((Any) -> any KeyValueDictionary)?
    /// Unwraps an `Optional` held in the `Any` (to its innermost value).
    let unwrap: ((Any) -> Any?)?
    /// Reads a number held in the `Any`.
    let number: ((Any) -> KeyValueNumber)?
    /// Makes a set member of the value (`AnyHashable`), when the type is `Hashable`.
    let hashable: ((Any) -> AnyHashable)?
    /// Whether the type is a class.
    let isClass: Bool
    /// The raw value of a `RawRepresentable` value (an enumeration with raw values, an option
    /// set), which predicates, sorting and `@min`/`@max` compare instead of the value itself.
    let rawValue: ((Any) -> Any)?

    private init(type: Any.Type) {
        self.type = type
        isClass = type is AnyClass
        if let rawType = type as? any RawRepresentable.Type {
            rawValue = Self.rawValueReader(rawType)
        } else {
            rawValue = nil
        }
        if let hashableType = type as? any Hashable.Type {
            hashable = Self.hashableMaker(hashableType)
        } else {
            hashable = nil
        }
        collection = (type as? any KeyValueCollection.Type).map { Self.collectionReader($0) }
        dictionary = (type as? any KeyValueDictionary.Type).map { Self.dictionaryReader($0) }
        if let codable = type as? any KeyValueCodable.Type {
            category = .codableObject
            readKey = Self.keyReader(codable)
            codableObject = Self.objectReader(codable)
            unwrap = nil
            number = nil
        } else if type == AnyHashable.self || type == ObjectIdentity.self {
            category = .wrapper
            readKey = nil
            codableObject = nil
            unwrap = { value in
                if let identity = value as? ObjectIdentity { return identity.object }
                return unwrapSetMember(value as! AnyHashable)
            }
            number = nil
        } else if let optional = type as? any OptionalValue.Type {
            category = .optional
            readKey = nil
            codableObject = nil
            unwrap = Self.unwrapper(optional)
            number = nil
        } else if let numeric = type as? any KeyValueNumeric.Type {
            category = .number
            readKey = nil
            codableObject = nil
            unwrap = nil
            number = Self.numberReader(numeric)
        } else if type is NSNumber.Type {
            category = .number
            readKey = nil
            codableObject = nil
            unwrap = nil
            number = { KeyValueNumber($0 as! NSNumber) }
        } else {
            readKey = nil
            codableObject = nil
            unwrap = nil
            number = nil
            if type is NSNull.Type {
                category = .null
            } else if type == String.self || type == Substring.self || type is NSString.Type {
                category = .string
            } else if collection != nil {
                category = .collection
            } else if dictionary != nil {
                category = .dictionary
            } else {
                category = .other
            }
        }
    }

    private static func keyReader<T: KeyValueCodable>(_: T.Type) -> (Any, String) throws -> Any? {
        { value, key in try loadInline(value, as: T.self).value(forKey: key) }
    }

    private static func objectReader<T: KeyValueCodable>(_: T.Type) -> (Any) -> any KeyValueCodable {
        { value in loadInline(value, as: T.self) }
    }

    private static func collectionReader<C: KeyValueCollection>(_: C.Type) -> (Any) -> any KeyValueCollection {
        { value in loadInline(value, as: C.self) }
    }

    private static func dictionaryReader<D: KeyValueDictionary>(_: D.Type) -> (Any) -> any KeyValueDictionary {
        { value in loadInline(value, as: D.self) }
    }

    private static func rawValueReader<R: RawRepresentable>(_: R.Type) -> (Any) -> Any {
        { value in (value as! R).rawValue }
    }

    private static func unwrapper<O: OptionalValue>(_: O.Type) -> (Any) -> Any? {
        { value in (value as! O).wrappedAny }
    }

    private static func numberReader<N: KeyValueNumeric>(_: N.Type) -> (Any) -> KeyValueNumber {
        { value in loadInline(value, as: N.self).bridgedNumber }
    }

    private static func hashableMaker<H: Hashable>(_: H.Type) -> (Any) -> AnyHashable {
        { value in AnyHashable(loadInline(value, as: H.self)) }
    }

    /// The kind of `type`.
    @inline(__always)
    static func of(_ type: Any.Type) -> ValueKind {
        cache.entry(for: type) { ValueKind(type: $0) }
    }

    /// Whether values of `type` are `KeyValueCodable` objects, without reference counting.
    @inline(__always)
    static func isCodableObject(_ type: Any.Type) -> Bool {
        cache.unmanagedEntry(for: type) { ValueKind(type: $0) }
            ._withUnsafeGuaranteedRef { $0.category == .codableObject }
    }

    private static let cache = TypeCache<ValueKind>()
}

/// Reads the `T` held in `value` (whose dynamic type must be exactly `T`), without a dynamic
/// cast when `T` is stored inline in the `Any` container.
///
/// An `Any` container is three words of inline buffer followed by the stored type's metadata
/// (the Swift ABI). Values of at most three words, word-aligned and bitwise-takable, and class
/// references are stored inline. When the stored type is not `T` itself (for example an `Any`
/// wrapped in another `Any`, as generic code produces), this falls back to a dynamic cast.
///
/// `package` and inlinable: the managed-object layer unboxes exactly typed values with it.
@inlinable @inline(__always)
package func loadInline<T>(_ value: Any, as: T.Type) -> T {
    if MemoryLayout<T>.size <= 3 * MemoryLayout<Int>.size,
       MemoryLayout<T>.alignment <= MemoryLayout<Int>.alignment,
       _isBitwiseTakable(T.self) {
        let direct: T? = withUnsafePointer(to: value) { container in
            let raw = UnsafeRawPointer(container)
            let stored = raw.load(fromByteOffset: 3 * MemoryLayout<Int>.size, as: UnsafeRawPointer.self)
            guard stored == unsafeBitCast(T.self as Any.Type, to: UnsafeRawPointer.self) else { return nil }
            return raw.load(as: T.self)
        }
        if let direct { return direct }
    }
    return value as! T
}

/// Whether the dynamic type of `value` is exactly `T` (`type(of: value) == T.self`), read from
/// the container's metadata word when it was boxed as a value type; only class references and
/// nested existentials ask the runtime (`swift_getDynamicType`, a call of some 80 instructions).
@inlinable @inline(__always)
package func holdsExactly<T>(_ value: Any, _: T.Type) -> Bool {
    if AnyContainerMetadata.isReadable {
        let stored = withUnsafePointer(to: value) { AnyContainerMetadata.word(at: UnsafeRawPointer($0)) }
        if AnyContainerMetadata.isValueTypeWord(stored) { return stored == AnyContainerMetadata.word(of: T.self) }
    }
    return type(of: value) == T.self
}

/// Whether `value` is `NSNull`, without a dynamic cast (which would bridge collections to
/// Objective-C-style objects just to answer no).
@inline(__always)
func isNSNull(_ value: Any) -> Bool {
    type(of: value) == NSNull.self
}
