import Foundation


/// The keys of one key-value coding class, found once by reflection and cached.
///
/// The description lists the class's stored properties (including its superclasses'), the
/// wrapped properties of property wrappers that conform to ``KeyValuePropertyWrapper`` (under
/// their plain names), and the computed keys that the class lists in
/// ``KeyValueCodable/computedKeys``. A computed key with the name of a stored property replaces
/// it. Fields whose names start with `$` (such as `lazy` storage) are not keys, nor are `weak`
/// and `unowned` fields (list them in `computedKeys` to make them keys). `let` constants are
/// read-only keys.
///
/// Thread safety: descriptions are immutable and the cache behind ``of(_:)`` is thread-safe.
public final class KeyValueClassDescription: @unchecked Sendable, TypeCacheEntry {
    // @unchecked: every stored property is an immutable `let` of Sendable contents; the
    // metatype is immutable.

    /// The class described.
    public let describedType: any KeyValueCodable.Type
    /// The keys' properties, in declaration order (superclass first), then computed keys.
    public let properties: [KeyValueProperty]
    var cachedType: Any.Type { describedType }

    /// The validators the class declares, by key.
    public let validators: [String: KeyValueValidator]

    private let keys: [String]
    private let index: [String: Int]
    /// Every key's UTF-8 bytes, one after another, and where each key's bytes are in it.
    private let keyBytes: [UInt8]
    private let keySpans: [(start: Int, count: Int)]

    private init(type: any KeyValueCodable.Type) {
        describedType = type
        var found: [KeyValueProperty] = []
        var positions: [String: Int] = [:]
        func add(_ property: KeyValueProperty) {
            if let existing = positions[property.key] {
                found[existing] = property
            } else {
                positions[property.key] = found.count
                found.append(property)
            }
        }
        for field in StoredField.all(of: type) {
            // `weak`/`unowned` storage is not a plain reference: such fields are not keys
            // (list them in `computedKeys` to expose them through their key paths).
            guard !field.name.isEmpty, !field.name.hasPrefix("$"), field.isStrong else { continue }
            if let wrapperType = field.type as? any KeyValuePropertyWrapper.Type, field.name.hasPrefix("_") {
                add(PropertyBuilder.wrapped(wrapperType, key: String(field.name.dropFirst()), offset: field.offset))
            } else {
                let property = Self.storedProperty(field.type, key: field.name, offset: field.offset)
                add(field.isVar ? property : property.readOnly())
            }
        }
        for (key, keyPath) in type.computedKeys.sorted(by: { $0.key < $1.key }) {
            add(PropertyBuilder.computed(key: key, keyPath: keyPath))
        }
        for property in found { property.ownerIdentifier = ObjectIdentifier(type) }
        properties = found
        keys = found.map(\.key)
        index = positions
        var bytes: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        for key in keys {
            spans.append((bytes.count, key.utf8.count))
            bytes.append(contentsOf: key.utf8)
        }
        keyBytes = bytes
        keySpans = spans
        validators = type.validators
    }

    private static func storedProperty(_ fieldType: Any.Type, key: String, offset: Int) -> KeyValueProperty {
        func open<T>(_: T.Type) -> KeyValueProperty {
            PropertyBuilder.stored(T.self, key: key, offset: offset)
        }
        return _openExistential(fieldType, do: open)
    }

    /// Returns the property for `key`, or nil when the class has no such key.
    ///
    /// - Complexity: O(1) for classes with many keys; a short linear scan of string
    ///   comparisons for classes with up to 16 keys (faster than hashing).
    @inlinable
    public func property(forKey key: String) -> KeyValueProperty? {
        guard let position = position(ofKey: key) else { return nil }
        return properties[position]
    }

    @usableFromInline
    func position(ofKey key: String) -> Int? {
        if keys.count <= 16 {
            return keys.withUnsafeBufferPointer { buffer in
                for i in 0..<buffer.count where buffer[i] == key { return i }
                return nil
            }
        }
        return index[key]
    }

    /// Returns the property whose key has the UTF-8 bytes `key`, or nil.
    func property(forKeyBytes key: UnsafeBufferPointer<UInt8>) -> KeyValueProperty? {
        guard keys.count <= 16 else {
            return property(forKey: String(decoding: key, as: UTF8.self))
        }
        let found: Int? = keyBytes.withUnsafeBufferPointer { all in
            keySpans.withUnsafeBufferPointer { spans in
                for i in 0..<spans.count where spans[i].count == key.count {
                    if key.isEmpty || memcmp(all.baseAddress! + spans[i].start, key.baseAddress!, key.count) == 0 {
                        return i
                    }
                }
                return nil
            }
        }
        return found.map { properties[$0] }
    }

    /// The keys of the class, in the order of ``properties``.
    public var allKeys: [String] { keys }

    // MARK: Cache

    /// Returns the description of `type`, building and caching it on first use.
    ///
    /// - Complexity: O(1) after the first call for a type.
    /// - Note: Thread-safe. Descriptions live as long as the process, like the types they
    ///   describe.
    public static func of(_ type: any KeyValueCodable.Type) -> KeyValueClassDescription {
        cache.entry(for: type) { _ in KeyValueClassDescription(type: type) }
    }

    /// The description of `type`, unretained (descriptions live as long as the process), for
    /// hot paths that use it through `_withUnsafeGuaranteedRef`.
    @inline(__always)
    static func unmanaged(of type: any KeyValueCodable.Type) -> Unmanaged<KeyValueClassDescription> {
        cache.unmanagedEntry(for: type) { _ in KeyValueClassDescription(type: type) }
    }

    private static let cache = TypeCache<KeyValueClassDescription>()
}
