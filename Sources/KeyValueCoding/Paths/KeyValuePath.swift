import Foundation
import Synchronization

/// A key path, checked once, to read from many objects (as predicates and sort descriptors do).
///
/// Reading walks from object to object directly through the class descriptions, without
/// boxing the objects along the way into `Any`, and gives the last value sorted by kind
/// (``KeyValueReading``). Where a step is not a plain property of a `KeyValueCodable` object
/// (an array, a dictionary, a collection operator, an undefined key), it falls back to
/// ``KeyValue/value(forKeyPath:of:)``, so the result is the same.
///
/// ```swift
/// let path = try KeyValuePath("department.manager.name")
/// for person in people {
///     if case .string(let name) = try path.reading(of: person) { … }
/// }
/// ```
///
/// - Note: Steps read stored properties, wrapped properties and listed computed keys
///   directly; a class's override of `value(forKey:)` is not called for them (its
///   `value(forUndefinedKey:)` is, for every other key).
///
/// Thread safety: immutable, `Sendable`; reading is as thread-safe as the objects read.
public struct KeyValuePath: Sendable, Hashable, CustomStringConvertible {
    /// The key path text.
    public let keyPath: String
    /// The keys, and per key a cache of the property last used for it.
    private let steps: PathSteps?

    /// Checks `keyPath` and wraps it.
    ///
    /// - Parameter keyPath: A dot-separated key path, which may contain a collection operator.
    /// - Throws: ``KeyValueCodingError/malformedKeyPath(_:reason:)`` for an empty path or key,
    ///   ``KeyValueCodingError/unknownOperator(_:keyPath:)`` for an unknown operator.
    public init(_ keyPath: String) throws {
        try KeyValue.checkComponents(Substring(keyPath), fullPath: keyPath)
        for component in keyPath.split(separator: ".") where component.first == "@" {
            if CollectionOperator(rawValue: String(component)) == nil {
                throw KeyValueCodingError.unknownOperator(String(component), keyPath: keyPath)
            }
        }
        self.keyPath = keyPath
        let keys = keyPath.split(separator: ".").map(String.init)
        steps = keys.contains { $0.hasPrefix("@") } ? nil : PathSteps(keys: keys)
    }

    public var description: String { keyPath }

    public static func == (lhs: KeyValuePath, rhs: KeyValuePath) -> Bool { lhs.keyPath == rhs.keyPath }
    public func hash(into hasher: inout Hasher) { hasher.combine(keyPath) }

    /// Reads the value at the end of the path, sorted by kind.
    ///
    /// - Parameter root: The value to start from (an object, a collection, a dictionary…).
    /// - Returns: The value; `.null` when a step gives `nil`.
    /// - Throws: ``KeyValueCodingError`` as ``KeyValue/value(forKeyPath:of:)`` does.
    public func reading(of root: Any?) throws -> KeyValueReading {
        if let object = codableObject(in: root),
           let reading = object._withUnsafeGuaranteedRef({ steps?.reading(of: $0) }) {
            return reading
        }
        switch try KeyValue.walk(keyPath, from: root) {
        case .property(let object, let property): return property._withUnsafeGuaranteedRef { $0.reader(object) }
        case .value(let value): return KeyValueReading(value)
        }
    }

    /// Reads the value at the end of the path from an object, sorted by kind.
    ///
    /// - Parameter object: The object to start from.
    /// - Returns: The value; `.null` when a step gives `nil`.
    /// - Throws: ``KeyValueCodingError`` as ``KeyValue/value(forKeyPath:of:)`` does.
    public func reading(of object: AnyObject) throws -> KeyValueReading {
        if let steps, let reading = steps.reading(of: object) { return reading }
        switch try KeyValue.walk(keyPath, fromObject: object) {
        case .property(let object, let property): return property._withUnsafeGuaranteedRef { $0.reader(object) }
        case .value(let value): return KeyValueReading(value)
        }
    }

    /// Reads the value at the end of the path, as ``KeyValue/value(forKeyPath:of:)`` does.
    ///
    /// - Parameter root: The value to start from.
    /// - Returns: The value, or `nil`.
    /// - Throws: ``KeyValueCodingError`` naming the key at fault.
    public func value(of root: Any?) throws -> Any? {
        try KeyValue.walk(keyPath, from: root).value
    }
}

/// The `KeyValueCodable` object that `value` holds directly (not through a nested
/// existential), unretained, read from the `Optional<Any>` container without copying it: three
/// words of inline value then the stored type's metadata, which is null for `nil` (the Swift
/// ABI).
@inline(__always)
func codableObject(in value: borrowing Any?) -> Unmanaged<AnyObject>? {
    withUnsafePointer(to: value) { container -> Unmanaged<AnyObject>? in
        let raw = UnsafeRawPointer(container)
        guard let metadata = raw.load(fromByteOffset: 3 * MemoryLayout<Int>.size, as: UnsafeRawPointer?.self)
        else { return nil }
        guard ValueKind.isCodableObject(unsafeBitCast(metadata, to: Any.Type.self)) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(raw.load(as: UnsafeRawPointer.self))
    }
}

/// The keys of a path without collection operators, each with a one-entry cache of the
/// property it named in the class last seen at that step.
///
/// Thread safety: the caches are atomic words holding unretained pointers to properties,
/// which live as long as the process (key tables are never released); a reader checks the
/// property's owner against the object's table before using it.
final class PathSteps: Sendable {
    let keys: [String]
    // Set once in `init`; the memory is reached only through atomics.
    nonisolated(unsafe) private let slots: UnsafeMutablePointer<Atomic<UInt>>
    /// Per step, the table reader (``OwnTableReader``, which lives as long as the process) of
    /// the class of the last object seen there whose table is its own: checking that a cached
    /// property belongs to such an object's table then needs no type-cache lookup.
    // Set once in `init`; the memory is reached only through atomics.
    nonisolated(unsafe) private let lookups: UnsafeMutablePointer<Atomic<UInt>>

    init(keys: [String]) {
        self.keys = keys
        slots = .allocate(capacity: keys.count)
        lookups = .allocate(capacity: keys.count)
        for index in keys.indices {
            (slots + index).initialize(to: Atomic<UInt>(0))
            (lookups + index).initialize(to: Atomic<UInt>(0))
        }
    }

    deinit {
        slots.deinitialize(count: keys.count)
        slots.deallocate()
        lookups.deinitialize(count: keys.count)
        lookups.deallocate()
    }

    /// The property for step `index` in `object`'s class (unretained: properties live as long
    /// as the process), or nil when the class has none.
    @inline(__always)
    private func property(at index: Int, of object: AnyObject) -> Unmanaged<KeyValueProperty>? {
        let bits = slots[index].load(ordering: .acquiring)
        if bits != 0 {
            let cached = Unmanaged<KeyValueProperty>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
            if let owner = cached._withUnsafeGuaranteedRef({ $0.owner }) {
                // A class table's properties are owned by the class: one compare.
                if owner == ObjectIdentifier(type(of: object)) { return cached }
                if ownsThroughCachedLookup(owner, at: index, object) { return cached }
            }
        }
        return lookUp(at: index, of: object)
    }

    /// Whether `owner` is the table of `object`, whose class supplies a table per object, when
    /// the class is the one cached for step `index` (false otherwise: the caller looks up).
    @inline(__always)
    private func ownsThroughCachedLookup(_ owner: ObjectIdentifier, at index: Int, _ object: AnyObject) -> Bool {
        let bits = lookups[index].load(ordering: .acquiring)
        guard bits != 0 else { return false }
        let reader = Unmanaged<OwnTableReader>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
        return reader._withUnsafeGuaranteedRef { reader in
            guard reader.classIdentifier == ObjectIdentifier(type(of: object)) else { return false }
            return reader.table(of: object)._withUnsafeGuaranteedRef { $0.owner } == owner
        }
    }

    @inline(never)
    private func lookUp(at index: Int, of object: AnyObject) -> Unmanaged<KeyValueProperty>? {
        if let reader = KeyTableLookup.ownTableReader(for: object) {
            lookups[index].store(UInt(bitPattern: reader.toOpaque()), ordering: .releasing)
        }
        guard let property = KeyTableLookup.table(ofObject: object)?
                .takeUnretainedValue().property(forKey: keys[index]) else {
            return nil
        }
        let unmanaged = Unmanaged.passUnretained(property)
        slots[index].store(UInt(bitPattern: unmanaged.toOpaque()), ordering: .releasing)
        return unmanaged
    }

    /// Reads the path from `object` through plain properties of objects; nil when a step needs
    /// the general walk (a value that is not an object, an undefined key).
    func reading(of object: AnyObject) -> KeyValueReading? {
        var current = object
        let last = keys.count - 1
        for index in 0..<last {
            guard let property = property(at: index, of: current) else { return nil }
            switch property._withUnsafeGuaranteedRef({ $0.reader(current) }) {
            case .object(let next): current = next
            case .null: return .null
            default: return nil
            }
        }
        guard let property = property(at: last, of: current) else { return nil }
        return property._withUnsafeGuaranteedRef { $0.reader(current) }
    }
}

/// Where a key-path walk ended: at a property of an object, or at a value.
enum PathEnd {
    /// A property of an object (properties live as long as their table: unretained).
    case property(AnyObject, Unmanaged<KeyValueProperty>)
    case value(Any?)

    var value: Any? {
        switch self {
        case .property(let object, let property): return property._withUnsafeGuaranteedRef { $0.getter(object) }
        case .value(let value): return value
        }
    }
}

extension KeyValue {
    /// Walks `path` from `root`: directly from object to object while it can, then through the
    /// general evaluation.
    static func walk(_ keyPath: String, from root: Any?) throws -> PathEnd {
        guard let root else {
            try checkComponents(Substring(keyPath), fullPath: keyPath)
            return .value(nil)
        }
        if let object = codableObject(in: root) {
            return try walk(keyPath, fromObject: object.takeUnretainedValue())
        }
        return .value(try evaluate(Substring(keyPath), fullPath: keyPath, from: root))
    }

    static func walk(_ keyPath: String, fromObject start: AnyObject) throws -> PathEnd {
        if let end = try keyPath.utf8.withContiguousStorageIfAvailable({ bytes in
            try walk(bytes, fullPath: keyPath, fromObject: start)
        }) {
            return end
        }
        var contiguous = keyPath  // a bridged string: copy it into native storage first
        contiguous.makeContiguousUTF8()
        return try walk(contiguous, fromObject: start)
    }

    /// The byte-level walk: no `String` is made for the keys along the way.
    private static func walk(_ bytes: UnsafeBufferPointer<UInt8>, fullPath: String,
                             fromObject start: AnyObject) throws -> PathEnd {
        let dot = UInt8(ascii: ".")
        func rest(from offset: Int) -> Substring {
            fullPath[fullPath.utf8.index(fullPath.utf8.startIndex, offsetBy: offset)...]
        }
        var object = start
        var begin = 0
        while true {
            var end = begin
            while end < bytes.count, bytes[end] != dot { end += 1 }
            let component = UnsafeBufferPointer(rebasing: bytes[begin..<end])
            // Tables and their properties live as long as the process: no reference counting.
            guard !component.isEmpty, component[0] != UInt8(ascii: "@"),
                  let table = KeyTableLookup.table(ofObject: object),
                  let found = table._withUnsafeGuaranteedRef({ $0.unmanagedProperty(forKeyBytes: component) })
            else {
                return .value(try evaluate(rest(from: begin), fullPath: fullPath, from: object))
            }
            if end == bytes.count { return .property(object, found) }
            switch found._withUnsafeGuaranteedRef({ $0.reader(object) }) {
            case .object(let next):
                object = next
                begin = end + 1
            case .null:
                try checkComponents(rest(from: end + 1), fullPath: fullPath)
                return .value(nil)
            default:
                let property = found.takeUnretainedValue()
                return .value(try evaluate(rest(from: end + 1), fullPath: fullPath, from: property.getter(object)))
            }
        }
    }
}
