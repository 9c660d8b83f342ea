import Foundation
import ObjectGraphInternals
import Synchronization

/// The keys of a key-value coding object: for each key, the property that reads and writes it.
///
/// Most objects use their class's table, found once by reflection and cached (``of(_:)``): the
/// class's stored properties (including its superclasses'), the wrapped properties of property
/// wrappers that conform to ``KeyValuePropertyWrapper`` (under their plain names), and the
/// computed keys that the class lists in ``KeyValueCodable/computedKeys``. A computed key with
/// the name of a stored property replaces it. Fields whose names start with `$` (such as `lazy`
/// storage) are not keys, nor are `weak` and `unowned` fields (list them in `computedKeys` to
/// make them keys). `let` constants are read-only keys.
///
/// An object can instead supply a table of its own by conforming to ``KeyValueKeyTableProviding``
/// (one generic class serving many schemas, as a managed object serves many entities). Such a
/// table is built with ``init(properties:validators:)`` from properties of any kind, including
/// accessor-backed ones (``KeyValueProperty/init(key:type:get:set:)``). Every key-value coding
/// path (`value(forKey:)`, key paths, collection operators, predicates and sorting) looks keys up
/// in the object's table, so such objects take the same fast paths as classes with stored
/// properties.
///
/// Tables live for the rest of the process once made (the fast paths keep unretained pointers to
/// their properties): build one per schema, not one per object.
///
/// Thread safety: tables are immutable and the cache behind ``of(_:)`` is thread-safe.
public final class KeyValueKeyTable: @unchecked Sendable, TypeCacheEntry {
    // @unchecked: every stored property is an immutable `let` of Sendable contents; the
    // metatype is immutable.

    /// The class whose reflection made this table; `nil` for a table made from a list of
    /// properties.
    public let describedType: (any KeyValueCodable.Type)?
    /// The keys' properties, in declaration order (superclass first), then computed keys.
    public let properties: [KeyValueProperty]
    @usableFromInline package var cachedType: Any.Type { describedType ?? KeyValueKeyTable.self }

    /// The validators, by key, that the default ``KeyValueCodable/validateValue(_:forKey:)``
    /// runs for objects using this table.
    public let validators: [String: KeyValueValidator]

    /// Stored properties of the class that are not keys, by name, with the reason (for the
    /// message of ``KeyValueCodingError/notAKey(_:type:reason:)``).
    package let unavailableKeys: [String: String]

    private let keys: [String]
    private let index: [String: Int]
    /// Every key's UTF-8 bytes, one after another, and where each key's bytes are in it.
    private let keyBytes: [UInt8]
    private let keySpans: [(start: Int, count: Int)]
    /// Every key's two words as the `String` holds them (``StringWords``): a key handed in
    /// with the same words is the same string, found without a string comparison.
    private let keyWords: [StringWords]

    /// Creates a table from a list of properties.
    ///
    /// Use it for objects whose keys are not their class's stored properties, and return the
    /// table from ``KeyValueKeyTableProviding/keyValueKeyTable``. A later property with the key
    /// of an earlier one replaces it. A property that already belongs to another table is copied.
    ///
    /// ```swift
    /// let table = KeyValueKeyTable(properties: [
    ///     KeyValueProperty(key: "title", type: String.self,
    ///                      get: { ($0 as! Record).values["title"] as? String ?? "" },
    ///                      set: { ($0 as! Record).values["title"] = $1 }),
    /// ])
    /// ```
    ///
    /// - Parameters:
    ///   - properties: The keys' properties.
    ///   - validators: Validators by key, for ``KeyValueCodable/validateValue(_:forKey:)``.
    /// - Complexity: O(*n*) in the number of properties.
    /// - Precondition: Every property is an accessor or computed property: a class's stored or
    ///   wrapped property reads a field at an offset of that class and cannot serve other
    ///   objects.
    /// - Note: The table is kept for the rest of the process (see the type's discussion).
    public convenience init(properties: [KeyValueProperty],
                            validators: [String: KeyValueValidator] = [:]) {
        self.init(describedType: nil, properties: properties, validators: validators)
        KeyTableRegistry.keep(self)
    }

    private init(describedType: (any KeyValueCodable.Type)?, properties: [KeyValueProperty],
                 validators: [String: KeyValueValidator], unavailableKeys: [String: String] = [:]) {
        self.describedType = describedType
        self.unavailableKeys = unavailableKeys.filter { note in !properties.contains { $0.key == note.key } }
        var found: [KeyValueProperty] = []
        var positions: [String: Int] = [:]
        for property in properties {
            if let existing = positions[property.key] {
                found[existing] = property
            } else {
                positions[property.key] = found.count
                found.append(property)
            }
        }
        // A property records one owner, claimed atomically (tables may be built on several
        // threads from the same properties): copy those that another table owns already.
        let token = OwnerToken()
        let identity = describedType.map { ObjectIdentifier($0) } ?? ObjectIdentifier(token)
        found = found.map { property in
            precondition(describedType != nil || property.isPortable,
                         "KeyValueKeyTable(properties:): the property '\(property.key)' reads a field of another class; "
                             + "build accessor properties (KeyValueProperty(key:type:get:set:)) for tables of your own")
            if property.claim(by: identity) { return property }
            let copy = property.copy()
            _ = copy.claim(by: identity)
            return copy
        }
        ownerToken = token
        owner = identity
        self.properties = found
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
        keyWords = keys.map(StringWords.init)
        self.validators = validators
    }

    /// The identity that properties of this table record as their owner: the class for a
    /// class's table (so a cache can check a property against an object's class without
    /// looking the table up), a token of the table's otherwise.
    let owner: ObjectIdentifier
    /// Keeps the owner token alive (its address is the identity).
    private let ownerToken: OwnerToken

    /// Reflects `type`'s keys.
    private convenience init(reflecting type: any KeyValueCodable.Type) {
        var found: [KeyValueProperty] = []
        var unavailable: [String: String] = [:]
        for field in StoredField.all(of: type) {
            // `weak`/`unowned` storage is not a plain reference: such fields are not keys
            // (list them in `computedKeys` to expose them through their key paths).
            guard !field.name.isEmpty, !field.name.hasPrefix("$"), field.isStrong else {
                Self.noteUnavailable(field, of: type, in: &unavailable)
                continue
            }
            if let wrapperType = field.type as? any KeyValuePropertyWrapper.Type, field.name.hasPrefix("_") {
                found.append(PropertyBuilder.wrapped(wrapperType, key: String(field.name.dropFirst()),
                                                     offset: field.offset))
            } else {
                let property = Self.storedProperty(field.type, key: field.name, offset: field.offset)
                found.append(field.isVar ? property : property.readOnly())
            }
        }
        for (key, keyPath) in type.computedKeys.sorted(by: { $0.key < $1.key }) {
            found.append(PropertyBuilder.computed(key: key, keyPath: keyPath))
        }
        let mutators = type.toManyMutators
        if !mutators.isEmpty {
            for property in found { property.toManyMutators = mutators[property.key] }
        }
        self.init(describedType: type, properties: found, validators: type.validators,
                  unavailableKeys: unavailable)
    }

    /// Records why `field` of `type` is not a key (a `weak`/`unowned` reference or `lazy`
    /// storage), so that the error for its name says so.
    private static func noteUnavailable(_ field: StoredField, of type: any KeyValueCodable.Type,
                                        in notes: inout [String: String]) {
        let lazyPrefix = "$__lazy_storage_$_"
        let listing = { (key: String) in
            "list it in computedKeys (\"\(key)\": \\\(String(describing: type)).\(key)) to make it a key"
        }
        if field.name.hasPrefix(lazyPrefix) {
            let key = String(field.name.dropFirst(lazyPrefix.count))
            notes[key] = "'\(key)' is a lazy property, which is not a key by itself; " + listing(key)
        } else if !field.name.hasPrefix("$"), !field.isStrong {
            notes[field.name] = "'\(field.name)' is a weak or unowned stored property, which is not a key "
                + "by itself; " + listing(field.name)
        }
    }

    private static func storedProperty(_ fieldType: Any.Type, key: String, offset: Int) -> KeyValueProperty {
        func open<T>(_: T.Type) -> KeyValueProperty {
            PropertyBuilder.stored(T.self, key: key, offset: offset)
        }
        return _openExistential(fieldType, do: open)
    }

    /// Returns the property for `key`, or nil when the table has no such key.
    ///
    /// - Complexity: O(1) for tables with many keys; for tables with up to 16 keys a short
    ///   linear scan (faster than hashing): of the strings' words, then, when no key has the
    ///   same words, of string comparisons.
    @inlinable
    public func property(forKey key: String) -> KeyValueProperty? {
        guard let position = position(ofKey: key) else { return nil }
        return properties[position]
    }

    @usableFromInline
    package func position(ofKey key: String) -> Int? {
        guard keys.count <= 16 else { return index[key] }
        // Keys of another length are passed over without a string comparison (the length of
        // a native string is stored in it).
        // The same words first: a key written in the source and the table's key of the same
        // text are both small strings with identical words (no call per key).
        if StringWords.isAvailable {
            let words = StringWords(key)
            let same = keyWords.withUnsafeBufferPointer { all -> Int? in
                for i in 0..<all.count where all[i] == words { return i }
                return nil
            }
            if let same { return same }
        }
        let length = key.utf8.count
        return keys.withUnsafeBufferPointer { buffer in
            keySpans.withUnsafeBufferPointer { spans in
                for i in 0..<buffer.count where spans[i].count == length && buffer[i] == key { return i }
                return nil
            }
        }
    }

    /// ``property(forKey:)``, unretained (properties live as long as their table), for
    /// classes whose key-value coding finds their table without ``KeyTableLookup``.
    @inline(__always)
    package func unmanagedProperty(forKey key: String) -> Unmanaged<KeyValueProperty>? {
        guard let position = position(ofKey: key) else { return nil }
        return properties.withUnsafeBufferPointer { Unmanaged.passUnretained($0[position]) }
    }

    /// The property at `position` (as ``position(ofKey:)`` gives), unretained.
    @inline(__always)
    package func unmanagedProperty(at position: Int) -> Unmanaged<KeyValueProperty> {
        properties.withUnsafeBufferPointer { Unmanaged.passUnretained($0[position]) }
    }

    /// ``property(forKeyBytes:)``, unretained (properties live as long as their table).
    @inline(__always)
    func unmanagedProperty(forKeyBytes key: UnsafeBufferPointer<UInt8>) -> Unmanaged<KeyValueProperty>? {
        guard let position = position(ofKeyBytes: key) else { return nil }
        return properties.withUnsafeBufferPointer { Unmanaged.passUnretained($0[position]) }
    }

    /// Returns the property whose key has the UTF-8 bytes `key`, or nil.
    func property(forKeyBytes key: UnsafeBufferPointer<UInt8>) -> KeyValueProperty? {
        position(ofKeyBytes: key).map { properties[$0] }
    }

    /// The position of the key whose UTF-8 bytes are `key`, or nil.
    private func position(ofKeyBytes key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard keys.count <= 16 else {
            return position(ofKey: String(decoding: key, as: UTF8.self))
        }
        return keyBytes.withUnsafeBufferPointer { all in
            keySpans.withUnsafeBufferPointer { spans in
                for i in 0..<spans.count where spans[i].count == key.count {
                    if key.isEmpty || memcmp(all.baseAddress! + spans[i].start, key.baseAddress!, key.count) == 0 {
                        return i
                    }
                }
                return nil
            }
        }
    }

    /// The keys of the table, in the order of ``properties``.
    public var allKeys: [String] { keys }

    // MARK: Class tables

    /// Returns the table of `type`'s own keys, building and caching it on first use.
    ///
    /// This is the class's table even when its instances supply tables of their own; use
    /// ``of(object:)`` for the table an object's keys are looked up in.
    ///
    /// - Complexity: O(1) after the first call for a type.
    /// - Note: Thread-safe. Tables live as long as the process, like the types they describe.
    public static func of(_ type: any KeyValueCodable.Type) -> KeyValueKeyTable {
        cache.entry(for: type) { _ in KeyValueKeyTable(reflecting: type) }
    }

    /// Returns the table that `object`'s keys are looked up in: its own when it conforms to
    /// ``KeyValueKeyTableProviding``, otherwise its class's.
    ///
    /// - Complexity: O(1) after the first call for the object's class.
    public static func of(object: any KeyValueCodable) -> KeyValueKeyTable {
        KeyTableLookup.table(of: object)?.takeUnretainedValue() ?? of(type(of: object))
    }

    /// The table of `type`, unretained (tables live as long as the process), for hot paths
    /// that use it through `_withUnsafeGuaranteedRef`.
    @inline(__always)
    static func unmanaged(of type: any KeyValueCodable.Type) -> Unmanaged<KeyValueKeyTable> {
        cache.unmanagedEntry(for: type) { _ in KeyValueKeyTable(reflecting: type) }
    }

    private static let cache = TypeCache<KeyValueKeyTable>()
}

/// The former name of ``KeyValueKeyTable``, from when every table belonged to a class.
@available(*, deprecated, renamed: "KeyValueKeyTable")
public typealias KeyValueClassDescription = KeyValueKeyTable

/// An object that supplies its own key table instead of its class's.
///
/// Conform a class whose instances differ in their keys (a generic record class serving several
/// schemas, as a managed object serves several entities). Return the same table for every
/// instance of one schema: tables are kept for the rest of the process.
///
/// Corresponds to nothing in Apple's API: there, `NSManagedObject` answers keys through its
/// entity description at run time.
///
/// - Important: The table must not change during the object's life (caches rely on it).
public protocol KeyValueKeyTableProviding: KeyValueCodable, SendableMetatype {
    /// The table this object's keys are looked up in.
    var keyValueKeyTable: KeyValueKeyTable { get }

    /// The same table, unretained, for the lookups every key read makes. The default wraps
    /// ``keyValueKeyTable``; implement it (`Unmanaged.passUnretained(table)`) when the table is a
    /// stored property, to save a retain and a release per read. Tables live for the rest of the
    /// process, so the unretained reference stays valid.
    var unmanagedKeyValueKeyTable: Unmanaged<KeyValueKeyTable> { get }
}

extension KeyValueKeyTableProviding {
    public var unmanagedKeyValueKeyTable: Unmanaged<KeyValueKeyTable> {
        Unmanaged.passUnretained(keyValueKeyTable)
    }
}

/// The object whose identity stands for a table made from a property list.
private final class OwnerToken: Sendable {}

/// Keeps tables made from property lists alive for the rest of the process.
enum KeyTableRegistry {
    private static let kept = Mutex<[KeyValueKeyTable]>([])

    static func keep(_ table: KeyValueKeyTable) {
        kept.withTrackedLock(ThreadSanitizer.staticOwner) { $0.append(table) }
    }
}

/// The two words of a `String` value, compared bit for bit: equal words are the same string
/// (the same small-string bytes, or the same storage and count), so equal words mean equal
/// strings. Unequal words say nothing (equal text may be stored apart, or in another
/// canonically equivalent form): the caller then compares the strings.
///
/// Only where ``isAvailable``: a `String` of another size (a 32-bit platform) gives zero words,
/// which no caller compares.
///
/// Package: a managed object's entity layout keeps its keys' words too (a store by key checks
/// the key it expects next without a call into the table).
@usableFromInline
package struct StringWords: Equatable, Sendable {
    @usableFromInline let first: UInt64
    @usableFromInline let second: UInt64

    /// Equal words (inlinable: compared in other modules without a call).
    @inlinable @inline(__always)
    package static func == (lhs: StringWords, rhs: StringWords) -> Bool {
        lhs.first == rhs.first && lhs.second == rhs.second
    }

    /// Whether a `String` is exactly two 64-bit words (every 64-bit platform), so that the
    /// words are the whole value (a constant the compiler folds).
    @inlinable @inline(__always)
    package static var isAvailable: Bool {
        MemoryLayout<String>.size == MemoryLayout<StringWords>.size && MemoryLayout<StringWords>.size == 16
    }

    @inlinable @inline(__always)
    package init(_ string: String) {
        guard Self.isAvailable else {
            first = 0
            second = 0
            return
        }
        self = unsafeBitCast(string, to: StringWords.self)
    }
}
