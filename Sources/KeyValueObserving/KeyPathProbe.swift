import KeyValueCoding
import ObjectGraphInternals
import Synchronization

/// Finds the key-value coding name of a Swift key path, for the typed `observe(\.name, ...)`.
///
/// Stored properties are named by the key path's description. Computed keys listed in
/// `computedKeys` are found by key path equality. An `@Observed` property is a computed property
/// to the key path machinery, so it is found by reading it once while a probe is active: the
/// wrapper's getter then reports its own key path and the address of its storage, and the
/// storage's byte offset names the key in the class's key-value coding description. Only a read
/// whose key path is the probed one counts (a computed property that reads `@Observed`
/// properties is not taken for one of them). Names are cached, so each key path is probed once
/// per process.
///
/// The probe reads the live object, so it reads only key paths that can be a single
/// `@Observed` property: one computed component (no subscript or property after it, no
/// optional chaining), whose value type is the value type of at least one `@Observed` property
/// of the class. Any other key path with a computed component (`\.list[0]`, `\.list.count`,
/// `\.items.first`) is refused without being evaluated, so the probe cannot trap or run code
/// with side effects through it. A plain computed property or a subscript of the class itself
/// whose type matches an `@Observed` property's is read once; list such properties in
/// `computedKeys` (checked first) to name them without any read.
@usableFromInline
package enum KeyPathProbe {
    @usableFromInline static let activeCount = Atomic<Int>(0)
    private static let cache = Mutex<[KeyPathKey: String]>([:])
    /// The reads of the probe running on this thread (task-local, so probes on other threads
    /// and reads by other threads during a probe do not mix).
    @TaskLocal private static var log: ReadLog?

    /// Whether a probe is running (one relaxed atomic load).
    @inlinable
    package static var isActive: Bool { activeCount.load(ordering: .relaxed) != 0 }

    /// Records that the `@Observed` property `property`, whose storage is at `storage` inside
    /// `object`, was read, when a probe runs on this thread.
    @usableFromInline @inline(never)
    static func recordRead(of object: AnyObject, property: AnyKeyPath, storage: UnsafeMutableRawPointer) {
        guard let log else { return }
        let base = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque())
        log.append(ProbedRead(object: ObjectIdentifier(object), keyPath: KeyPathKey(property),
                              offset: storage - base))
    }

    /// Records that the property `property` of `object`, whose key is `key`, was read, when a
    /// probe runs on this thread (for storages that know their key).
    @usableFromInline @inline(never)
    package static func recordRead(of object: AnyObject, key: String) {
        guard let log else { return }
        log.append(ProbedRead(object: ObjectIdentifier(object), keyPath: nil, offset: -1, key: key))
    }

    /// Returns the key-value coding key path for `keyPath`, read on `object`.
    ///
    /// - Throws: ``KeyValueObservingError/unsupportedKeyPath(_:)`` when no name can be found.
    static func keyPathString<Root: AnyObject, Value>(for keyPath: KeyPath<Root, Value>,
                                                      on object: Root) throws -> String {
        if let cached = cache.withTrackedLock(ThreadSanitizer.staticOwner, { $0[KeyPathKey(keyPath)] }) { return cached }
        let description = keyPath.debugDescription
        var name: String?
        if !description.contains("<computed") {
            name = dottedPath(of: description)
        } else if let codable = object as? any KeyValueCodable {
            let type = type(of: codable)
            name = computedKeyName(for: keyPath, in: type)
            if name == nil, isSingleComputedComponent(description, root: Root.self, value: Value.self),
               object is any KeyPathNamingObject || hasObservedProperty(of: Value.self, in: type) {
                name = probedKey(for: keyPath, on: object, in: type)
            }
        }
        guard let name, !name.isEmpty else {
            throw KeyValueObservingError.unsupportedKeyPath(description)
        }
        cache.withTrackedLock(ThreadSanitizer.staticOwner) { $0[KeyPathKey(keyPath)] = name }
        return name
    }

    /// Reads `keyPath` with a probe active and names the one `@Observed` property it read.
    private static func probedKey<Root: AnyObject, Value>(for keyPath: KeyPath<Root, Value>, on object: Root,
                                                         in type: any KeyValueCodable.Type) -> String? {
        let probe = ReadLog()
        // An object that names its keys checks its own flag on every typed read, not the
        // process-wide count (a call into this module from its getters).
        let naming = object as? any KeyPathNamingObject
        let wasProbed = naming?.isReadByKeyPathProbe ?? false
        naming?.isReadByKeyPathProbe = true
        activeCount.add(1, ordering: .relaxed)
        $log.withValue(probe) { _ = object[keyPath: keyPath] }
        activeCount.subtract(1, ordering: .relaxed)
        naming?.isReadByKeyPathProbe = wasProbed
        let probed = KeyPathKey(keyPath)
        let reads = probe.reads.filter { $0.object == ObjectIdentifier(object) }
        // A storage that names its key (a managed property): the read when it is the only one.
        let keyed = reads.compactMap(\.key)
        if keyed.count == 1, reads.count == 1 { return keyed[0] }
        guard let read = reads.first(where: { $0.keyPath == probed })
                ?? inheritedRead(reads, for: keyPath, on: object) else { return nil }
        for property in KeyValueKeyTable.of(type).properties {
            if case .wrapped(let offset, _) = property.storage, offset == read.offset { return property.key }
        }
        return nil
    }

    /// Whether `description` is that of a key path with exactly one computed component:
    /// `\Root.<computed 0x0123456789abcdef (Value)>`, nothing before or after it.
    static func isSingleComputedComponent(_ description: String, root: Any.Type, value: Any.Type) -> Bool {
        let prefix = "\\\(String(describing: root)).<computed 0x"
        let suffix = " (\(String(describing: value)))>"
        guard description.hasPrefix(prefix), description.hasSuffix(suffix),
              description.utf8.count > prefix.utf8.count + suffix.utf8.count else { return false }
        let address = description.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
        return address.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
    }

    /// The read that names a property inherited from a superclass, if `reads` shows one.
    ///
    /// Such a property's getter reports the superclass's key path (`\Shape.side` for
    /// `\Square.side`), which is not equal to the subclass's. It is taken for the probed
    /// property only when nothing else can explain the read: it is the only read, its key path
    /// has a superclass of `Root` as its root and `Value` as its value, the probed key path is
    /// writable (as every `@Observed` property is; a get-only computed property of the
    /// subclass is not), and both key paths give equal values where `Value` is `Equatable`.
    private static func inheritedRead<Root: AnyObject, Value>(_ reads: [ProbedRead], for keyPath: KeyPath<Root, Value>,
                                                             on object: Root) -> ProbedRead? {
        guard reads.count == 1, let read = reads.first, keyPath is ReferenceWritableKeyPath<Root, Value>,
              let readPath = read.keyPath, let inherited = superclassKeyPath(readPath.keyPath, below: Root.self),
              type(of: inherited).valueType == Value.self,
              let superValue = object[keyPath: inherited] as? Value else { return nil }
        if let equal = valuesEqual(superValue, object[keyPath: keyPath]), !equal { return nil }
        return read
    }

    /// `keyPath` when its root is a superclass of `root` (so it applies to `root`'s instances).
    private static func superclassKeyPath(_ keyPath: AnyKeyPath, below root: AnyClass) -> AnyKeyPath? {
        var ancestor: AnyClass? = _getSuperclass(root)
        while let current = ancestor {
            if type(of: keyPath).rootType == current { return keyPath }
            ancestor = _getSuperclass(current)
        }
        return nil
    }

    /// Whether two values are equal, or nil when their type is not `Equatable`.
    private static func valuesEqual<Value>(_ lhs: Value, _ rhs: Value) -> Bool? {
        guard let lhs = lhs as? any Equatable else { return nil }
        func open<T: Equatable>(_ lhs: T) -> Bool { (rhs as? T).map { $0 == lhs } ?? false }
        return open(lhs)
    }

    /// Whether `type` has an `@Observed` property whose values are of type `value`.
    private static func hasObservedProperty<Value>(of value: Value.Type, in type: any KeyValueCodable.Type) -> Bool {
        let wanted = ObjectIdentifier(Observed<Value>.self)
        return KeyValueKeyTable.of(type).properties.contains { property in
            if case .wrapped(_, let wrapperType) = property.storage { return ObjectIdentifier(wrapperType) == wanted }
            return false
        }
    }

    /// `\Person.department?.name` → `department.name`.
    private static func dottedPath(of description: String) -> String? {
        guard description.hasPrefix("\\"), let dot = description.firstIndex(of: ".") else { return nil }
        let path = description[description.index(after: dot)...]
            .replacingOccurrences(of: "?", with: "").replacingOccurrences(of: "!", with: "")
        return path.isEmpty ? nil : path
    }

    /// A computed key listed in `computedKeys` with an equal key path.
    private static func computedKeyName(for keyPath: AnyKeyPath, in type: any KeyValueCodable.Type) -> String? {
        type.computedKeys.first { $0.value == keyPath }?.key
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// A key path as a dictionary key.
///
/// `@unchecked Sendable`: key path objects are immutable once created.
private struct KeyPathKey: Hashable, @unchecked Sendable {
    let keyPath: AnyKeyPath
    init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
}

/// One `@Observed` read seen by a probe.
private struct ProbedRead: Sendable {
    var object: ObjectIdentifier
    /// The key path of the read (nil for a storage that names its key instead).
    var keyPath: KeyPathKey?
    var offset: Int
    /// The key, when the storage that was read knows it (a managed property).
    var key: String? = nil
}

/// Objects whose typed properties name their key when a probe reads them
/// (``KeyPathProbe/recordRead(of:key:)``), so `observe(\.property)` finds the key of
/// a property that is not `@Observed` (a managed object's `@Managed` property).
package protocol KeyPathNamingObject: AnyObject {
    /// Whether a probe is reading the object: its typed reads report their keys while it is
    /// (a flag of the object's own, which its reads check instead of ``KeyPathProbe/isActive``).
    var isReadByKeyPathProbe: Bool { get set }
}

/// The reads seen by one probe.
private final class ReadLog: Sendable {
    private let state = Mutex<[ProbedRead]>([])

    var reads: [ProbedRead] { state.withTrackedLock(self) { $0 } }

    func append(_ read: ProbedRead) { state.withTrackedLock(self) { $0.append(read) } }
}
