import Foundation

/// What key-value coding needs to know about one dynamic type seen through `Any`, found once
/// per type with dynamic casts and then reused.
///
/// Dynamic casts to protocol types cost 50–150 ns each on Linux; key-value coding looks at
/// every value it passes through, so it asks this cache (a few nanoseconds) instead.
///
/// Thread safety: immutable; the cache is thread-safe.
final class ValueKind: @unchecked Sendable {
    // @unchecked: every stored property is a `let`; the closures capture only metatypes.

    enum Category {
        case codableObject
        case optional
        case number
        case null
        case collection
        case dictionary
        case other
    }

    let type: Any.Type
    let category: Category
    /// Reads a key of a `KeyValueCodable` object held in the `Any`.
    let readKey: ((Any, String) throws -> Any?)?
    /// Unwraps an `Optional` held in the `Any` (to its innermost value).
    let unwrap: ((Any) -> Any?)?
    /// Reads a number held in the `Any`.
    let number: ((Any) -> KeyValueNumber)?
    /// Makes a set member of the value (`AnyHashable`), when the type is `Hashable`.
    let hashable: ((Any) -> AnyHashable)?
    /// Whether the type is a class.
    let isClass: Bool

    private init(type: Any.Type) {
        self.type = type
        isClass = type is AnyClass
        if let hashableType = type as? any Hashable.Type {
            hashable = Self.hashableMaker(hashableType)
        } else {
            hashable = nil
        }
        if let codable = type as? any KeyValueCodable.Type {
            category = .codableObject
            readKey = Self.keyReader(codable)
            unwrap = nil
            number = nil
        } else if let optional = type as? any OptionalValue.Type {
            category = .optional
            readKey = nil
            unwrap = Self.unwrapper(optional)
            number = nil
        } else if let numeric = type as? any KeyValueNumeric.Type {
            category = .number
            readKey = nil
            unwrap = nil
            number = Self.numberReader(numeric)
        } else if type is NSNumber.Type {
            category = .number
            readKey = nil
            unwrap = nil
            number = { KeyValueNumber(unsafeDowncast(loadObject($0), to: NSNumber.self)) }
        } else {
            readKey = nil
            unwrap = nil
            number = nil
            if type is NSNull.Type {
                category = .null
            } else if type is any KeyValueCollection.Type {
                category = .collection
            } else if type is any KeyValueDictionary.Type {
                category = .dictionary
            } else {
                category = .other
            }
        }
    }

    private static func keyReader<T: KeyValueCodable>(_: T.Type) -> (Any, String) throws -> Any? {
        { value, key in try unsafeDowncast(loadObject(value), to: T.self).value(forKey: key) }
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

    private static let cache = TypeCache<ValueKind> { ObjectIdentifier($0.type) }
}

/// Reads the class reference held in `value` (which must hold a class instance).
@inline(__always)
func loadObject(_ value: Any) -> AnyObject {
    // A class reference is always stored inline, in the first word of an `Any` container.
    withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: AnyObject.self) }
}

/// Reads the `T` held in `value` (whose dynamic type must be exactly `T`), without a dynamic
/// cast when `T` is stored inline in the `Any` container.
@inline(__always)
func loadInline<T>(_ value: Any, as: T.Type) -> T {
    // Values of at most three words, word-aligned and bitwise-takable, are stored inline in an
    // `Any` container (the Swift ABI); others are boxed, and are cast instead.
    if MemoryLayout<T>.size <= 3 * MemoryLayout<Int>.size,
       MemoryLayout<T>.alignment <= MemoryLayout<Int>.alignment,
       _isBitwiseTakable(T.self) {
        return withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: T.self) }
    }
    return value as! T
}

/// Whether `value` is `NSNull`, without a dynamic cast (which would bridge collections to
/// Objective-C-style objects just to answer no).
@inline(__always)
func isNSNull(_ value: Any) -> Bool {
    type(of: value) == NSNull.self
}
