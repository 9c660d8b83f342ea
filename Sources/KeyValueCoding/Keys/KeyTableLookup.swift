import ObjectGraphInternals

/// Per class, where its instances' keys are: the class's table, or a table each instance
/// supplies (``KeyValueKeyTableProviding``); none for classes that are not `KeyValueCodable`.
///
/// Every key-value coding fast path finds an object's table here, so that objects with tables
/// of their own take the same paths as classes with stored properties.
///
/// Thread safety: entries are immutable and cached in a thread-safe ``TypeCache``.
final class KeyTableLookup: TypeCacheEntry {
    let type: Any.Type
    @usableFromInline package var cachedType: Any.Type { type }
    /// The class's table, for classes whose instances use it.
    let classTable: KeyValueKeyTable?
    /// Reads an instance's own table, for classes whose instances supply one.
    let perObject: OwnTableReader?
    /// The same reader, unretained (``perObject`` keeps it; entries live as long as the
    /// process), so that finding an object's own table takes no reference counting.
    private let unretainedPerObject: Unmanaged<OwnTableReader>?

    init(type: Any.Type) {
        self.type = type
        if let providing = type as? any KeyValueKeyTableProviding.Type {
            func reader<T: KeyValueKeyTableProviding>(_: T.Type) -> OwnTableReader { TypedOwnTableReader<T>() }
            classTable = nil
            perObject = reader(providing)
        } else {
            classTable = (type as? any KeyValueCodable.Type).map { KeyValueKeyTable.of($0) }
            perObject = nil
        }
        unretainedPerObject = perObject.map { Unmanaged.passUnretained($0) }
    }

    /// The table `object`'s keys are looked up in, unretained (tables live as long as the
    /// process); nil when its class is not `KeyValueCodable`.
    @inline(__always)
    static func table(ofObject object: AnyObject) -> Unmanaged<KeyValueKeyTable>? {
        entry(for: object)._withUnsafeGuaranteedRef { lookup in
            if let classTable = lookup.classTable { return Unmanaged.passUnretained(classTable) }
            guard let perObject = lookup.unretainedPerObject else { return nil }
            return perObject._withUnsafeGuaranteedRef { $0.table(of: object) }
        }
    }

    /// The table `object`'s keys are looked up in.
    @inline(__always)
    static func table(of object: any KeyValueCodable) -> Unmanaged<KeyValueKeyTable>? {
        table(ofObject: object)
    }

    /// Whether a property owned by `owner` (see ``KeyValueProperty/owner``) belongs to the table
    /// that `object`'s keys are looked up in.
    @inline(__always)
    static func owns(_ owner: ObjectIdentifier, _ object: AnyObject) -> Bool {
        // A class table's properties are owned by the class: one compare, no lookup.
        if owner == ObjectIdentifier(Swift.type(of: object)) { return true }
        return ownsThroughOwnTable(owner, Unmanaged.passUnretained(object))
    }

    /// ``owns(_:_:)`` for an unretained object, without reference counting on the fast path.
    @inline(__always)
    static func owns(_ owner: ObjectIdentifier, _ object: Unmanaged<AnyObject>) -> Bool {
        if owner == object._withUnsafeGuaranteedRef({ ObjectIdentifier(Swift.type(of: $0)) }) { return true }
        return ownsThroughOwnTable(owner, object)
    }

    @inline(__always)
    private static func ownsThroughOwnTable(_ owner: ObjectIdentifier, _ object: Unmanaged<AnyObject>) -> Bool {
        let object = object.takeUnretainedValue()
        return entry(for: object)._withUnsafeGuaranteedRef { lookup in
            guard let perObject = lookup.perObject else { return false }
            return perObject.table(of: object)._withUnsafeGuaranteedRef { $0.owner } == owner
        }
    }

    /// The reader of the table `object` supplies, when its class supplies one per object
    /// (unretained: readers live as long as the process, with their lookup entries).
    static func ownTableReader(for object: AnyObject) -> Unmanaged<OwnTableReader>? {
        entry(for: object)._withUnsafeGuaranteedRef { $0.perObject.map { Unmanaged.passUnretained($0) } }
    }

    @inline(__always)
    private static func entry(for object: AnyObject) -> Unmanaged<KeyTableLookup> {
        cache.unmanagedEntry(for: Swift.type(of: object)) { KeyTableLookup(type: $0) }
    }

    private static let cache = TypeCache<KeyTableLookup>()
}

/// Reads the table an instance supplies; one subclass per conforming class, so the call is a
/// class method call (no closure context to retain).
class OwnTableReader: @unchecked Sendable {
    // @unchecked: immutable.
    /// The class whose instances this reader reads.
    final let classIdentifier: ObjectIdentifier

    init(classIdentifier: ObjectIdentifier) { self.classIdentifier = classIdentifier }

    func table(of object: AnyObject) -> Unmanaged<KeyValueKeyTable> { fatalError("abstract") }
}

final class TypedOwnTableReader<T: KeyValueKeyTableProviding>: OwnTableReader, @unchecked Sendable {
    // @unchecked: immutable.
    init() { super.init(classIdentifier: ObjectIdentifier(T.self)) }

    override func table(of object: AnyObject) -> Unmanaged<KeyValueKeyTable> {
        // Lookups are per exact class, so the instance is a `T`.
        unsafeDowncast(object, to: T.self).unmanagedKeyValueKeyTable
    }
}
