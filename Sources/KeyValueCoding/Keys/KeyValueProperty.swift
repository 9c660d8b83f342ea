import Foundation
import ObjectGraphInternals
import Synchronization

/// One key of a key-value coding object: how to read it and how to write it.
///
/// Properties of classes are found once per class by reflection (see ``KeyValueKeyTable``);
/// other modules build properties from accessor closures
/// (``init(key:type:get:set:read:)``) for tables of their own. Properties are immutable once
/// they belong to a table. Higher layers (observing, managed objects) use this description to
/// reach a property's storage.
///
/// Thread safety: immutable, so safe to share; reading or writing an object's value through it
/// is as thread-safe as the property itself.
public final class KeyValueProperty: @unchecked Sendable {
    // @unchecked: every stored property is a `let`. The accessor closures capture only
    // immutable values (a key, a byte offset, metatypes, a key path) and keep no state, so
    // calling them from several threads is as safe as the property access they perform.

    /// Where a property's value lives.
    public enum Storage: @unchecked Sendable {
        /// A stored property at a byte offset inside the instance.
        case stored(offset: Int)
        /// A property wrapper's storage at a byte offset; the wrapper's type is given.
        case wrapped(offset: Int, wrapperType: any KeyValuePropertyWrapper.Type)
        /// A computed property reached through a key path.
        case computed(AnyKeyPath)
        /// A property read and written through closures (see ``init(key:type:get:set:read:)``).
        case accessor
    }

    /// The key.
    public let key: String
    /// The declared type of the value (`Optional<T>` for optional properties).
    public let valueType: Any.Type
    /// Where the value lives.
    public let storage: Storage
    /// Whether the property accepts `nil`.
    public let isOptional: Bool
    /// The class (for a class's table) or the table holding this property, set once while the
    /// table is built (before it is shared); lets caches check a property against an object.
    var owner: ObjectIdentifier? {
        let bits = ownerBits.load(ordering: .acquiring)
        return bits == 0 ? nil : unsafeBitCast(bits, to: ObjectIdentifier.self)
    }
    private let ownerBits = Atomic<UInt>(0)

    /// Records `identity` as the owner unless another table owns the property already.
    /// - Returns: Whether the property is now owned by `identity`.
    func claim(by identity: ObjectIdentifier) -> Bool {
        let bits = UInt(bitPattern: identity)
        let (exchanged, current) = ownerBits.compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing)
        return exchanged || current == bits
    }

    /// Whether the property can serve objects of any class: its storage is not a field of the
    /// class it was found in.
    var isPortable: Bool {
        switch storage {
        case .stored, .wrapped: return false
        case .computed, .accessor: return true
        }
    }
    /// The byte offset, inside an instance, of a value that can be read directly as
    /// `valueType`: a stored property's field, or the value inside an `@Observed` wrapper's
    /// storage. Fast paths (collection operators) read such values without a call.
    let directOffset: Int?
    /// The element-wise mutators the proxies call for this to-many property, if declared.
    /// Set once while the table is built (before it is shared).
    public internal(set) nonisolated(unsafe) var toManyMutators: KeyValueToManyMutators?
    /// Whether the property cannot be set (a read-only computed key).
    public var isReadOnly: Bool { setter == nil }

    @usableFromInline let getter: (AnyObject) -> Any?
    /// Reads the value sorted by kind (see ``KeyValueReading``).
    @usableFromInline let reader: (AnyObject) -> KeyValueReading
    /// Stores a non-nil value; `notify` asks for change notifications around the store.
    @usableFromInline let setter: ((any KeyValueCodable, Any, Bool) throws -> Void)?
    /// Stores nil; present only for optional properties.
    @usableFromInline let nilSetter: ((any KeyValueCodable, Bool) throws -> Void)?
    /// Whether stores through ``setValue(_:on:notify:)`` notify, when the table that holds the
    /// property knows it once for all its objects (one class per table); `nil` asks the
    /// object's class (`automaticallyNotifiesObservers(forKey:)`) on every store.
    let automaticNotification: Bool?

    /// A property whose reader is built from its storage (``ReaderBuilder``).
    convenience init(key: String, valueType: Any.Type, storage: Storage, isOptional: Bool,
                     directOffset: Int? = nil,
                     getter: @escaping (AnyObject) -> Any?,
                     setter: ((any KeyValueCodable, Any, Bool) throws -> Void)?,
                     nilSetter: ((any KeyValueCodable, Bool) throws -> Void)?) {
        self.init(key: key, valueType: valueType, storage: storage, isOptional: isOptional,
                  directOffset: directOffset, getter: getter,
                  reader: ReaderBuilder.make(directOffset: directOffset, valueType: valueType, getter: getter),
                  setter: setter, nilSetter: nilSetter)
    }

    /// A property with its reader. `reader` is not optional on purpose: a closure passed
    /// through an optional is stored at its most general abstraction, and every call would go
    /// through a reabstraction thunk each way (and one more pair for each ``copy(keepingSetters:)``).
    init(key: String, valueType: Any.Type, storage: Storage, isOptional: Bool,
         directOffset: Int?,
         getter: @escaping (AnyObject) -> Any?,
         reader: @escaping (AnyObject) -> KeyValueReading,
         setter: ((any KeyValueCodable, Any, Bool) throws -> Void)?,
         nilSetter: ((any KeyValueCodable, Bool) throws -> Void)?,
         automaticNotification: Bool? = nil) {
        self.key = key
        self.valueType = valueType
        self.storage = storage
        self.isOptional = isOptional
        self.directOffset = directOffset
        self.getter = getter
        self.reader = reader
        self.setter = setter
        self.nilSetter = nilSetter
        self.automaticNotification = automaticNotification
    }

    /// The same property without its setters (for `let` constants).
    func readOnly() -> KeyValueProperty { copy(keepingSetters: false) }

    /// An unowned copy (for a table that finds the property already owned by another), with or
    /// without its setters.
    func copy(keepingSetters: Bool = true) -> KeyValueProperty {
        let copy = KeyValueProperty(key: key, valueType: valueType, storage: storage, isOptional: isOptional,
                                    directOffset: directOffset, getter: getter, reader: reader,
                                    setter: keepingSetters ? setter : nil,
                                    nilSetter: keepingSetters ? nilSetter : nil,
                                    automaticNotification: automaticNotification)
        copy.toManyMutators = toManyMutators
        return copy
    }

    /// Reads the value of this property in `object`.
    ///
    /// - Parameter object: An instance of the class (or a subclass) this property was found in.
    /// - Returns: The value; `nil` when an optional property holds `nil`.
    @inlinable
    public func value(of object: AnyObject) -> Any? {
        getter(object)
    }

    /// Sets the value of this property in `object`, converting numbers as needed.
    ///
    /// `NSNull()` counts as `nil` (Apple stores the `NSNull` object itself into object-typed
    /// properties; a Swift property cannot hold it).
    ///
    /// - Parameters:
    ///   - value: The new value, or `nil`.
    ///   - object: An instance of the class (or a subclass) this property was found in.
    ///   - notify: Whether to send change notifications around the store. By default, those
    ///     that the object's type sends automatically for this key.
    /// - Throws: ``KeyValueCodingError`` when the value has the wrong type or range, when the
    ///   key is read-only, or what `setNilValueForKey(_:)` throws for `nil`.
    public func setValue(_ value: Any?, on object: any KeyValueCodable, notify: Bool? = nil) throws {
        guard let setter else {
            throw KeyValueCodingError.readOnlyKey(key, type: typeName(type(of: object)))
        }
        let notify = notify ?? automaticNotification ?? type(of: object).automaticallyNotifiesObservers(forKey: key)
        if let value, !isNSNull(value) || valueType == NSNull.self {
            try setter(object, value, notify)
        } else if let nilSetter {
            try nilSetter(object, notify)
        } else {
            try object.setNilValueForKey(key)
        }
    }
}

