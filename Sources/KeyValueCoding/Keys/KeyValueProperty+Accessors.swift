import Foundation

extension KeyValueProperty {
    /// Creates a property that reads and writes its value through closures.
    ///
    /// Use it to give keys to objects whose values are not stored properties of their class, in
    /// a ``KeyValueKeyTable`` that the objects supply (``KeyValueKeyTableProviding``): a record
    /// whose values live in an array, a managed object whose attributes live in its storage.
    /// Key-value coding converts values as it does for stored properties (numbers bridge,
    /// enumerations convert from raw values, `NSNull` counts as `nil`) before calling `set`, and
    /// sends change notifications around the call when the object's type notifies automatically
    /// for `key`.
    ///
    /// ```swift
    /// let title = KeyValueProperty(key: "title", type: String.self,
    ///                              get: { ($0 as! Record).values[0] as! String },
    ///                              set: { ($0 as! Record).values[0] = $1 })
    /// ```
    ///
    /// Predicates and sort descriptors read `Int`, `Double`, `Bool` and `String` values (and
    /// their optionals) from `get` without boxing them; pass `read` to supply typed readings
    /// for other types.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - type: The value's type; `Optional<T>` for a key that accepts `nil`.
    ///   - get: Returns the value of the key in an object (an instance of the class whose table
    ///     holds the property).
    ///   - set: Stores a new value; `nil` makes the key read-only. May throw to refuse a value.
    ///   - read: Returns the value sorted by kind, for predicates and sorting; by default built
    ///     from `get`.
    ///   - mutators: For a to-many key, the element-wise mutators the mutable proxies call
    ///     (see ``KeyValueToManyMutators``).
    ///
    /// Corresponds to the accessor methods (`-name`, `-setName:`) that Apple's key-value coding
    /// finds by name.
    @inlinable
    public convenience init<Value>(
        key: String, type: Value.Type = Value.self,
        get: @escaping @Sendable (AnyObject) -> Value,
        set: (@Sendable (AnyObject, Value) throws -> Void)? = nil,
        read: (@Sendable (AnyObject) -> KeyValueReading)? = nil,
        mutators: KeyValueToManyMutators? = nil
    ) {
        // Inlined so that the typed reader is specialised for `Value` where the property is
        // made: predicates and sorting then read without generic indirection. No `??`: a
        // closure passed through an optional or a generic parameter is stored at its most
        // general abstraction and called through a reabstraction thunk each way, on every read.
        let reader: (AnyObject) -> KeyValueReading
        if let read { reader = read } else { reader = AccessorReaders.make(get) }
        self.init(accessorKey: key, type: Value.self, get: get, set: set, read: reader, mutators: mutators)
    }

    /// The accessor property's construction (see the public initialiser).
    @usableFromInline
    convenience init<Value>(
        accessorKey key: String, type: Value.Type,
        get: @escaping @Sendable (AnyObject) -> Value,
        set: (@Sendable (AnyObject, Value) throws -> Void)?,
        read: @escaping (AnyObject) -> KeyValueReading,
        mutators: KeyValueToManyMutators?
    ) {
        let optionalType = Value.self as? any OptionalValue.Type
        // An `Any` may hold an optional too: flatten it as optional keys are.
        let getter: (AnyObject) -> Any?
        if let optionalType {
            // Unwrapped by the optional type itself: no type-cache look-up per read.
            getter = optionalType.accessorGetter(get)
        } else if Value.self == Any.self {
            getter = { object in flattenOptional(get(object)) }
        } else {
            getter = { object in get(object) }
        }
        var setter: ((any KeyValueCodable, Any, Bool) throws -> Void)?
        var nilSetter: ((any KeyValueCodable, Bool) throws -> Void)?
        if let set {
            func store(_ object: any KeyValueCodable, _ value: Value, _ notify: Bool) throws {
                guard notify else { return try set(object, value) }
                // A setter that refuses the value cancels the announced change.
                try object.changingValue(forKey: key) { try set(object, value) }
            }
            if let optionalType {
                setter = { object, value, notify in
                    let converted = try coerceOptional(value, wrapped: optionalType.wrappedType,
                                                       as: Value.self, key: key, owner: object)
                    try store(object, converted, notify)
                }
                nilSetter = { object, notify in
                    let none: Any? = nil
                    try store(object, none as! Value, notify)
                }
            } else {
                setter = { object, value, notify in
                    guard let converted = try coerce(value, to: Value.self, key: key, owner: object) else {
                        try object.setNilValueForKey(key)
                        return
                    }
                    try store(object, converted, notify)
                }
            }
        }
        self.init(key: key, valueType: Value.self, storage: .accessor, isOptional: optionalType != nil,
                  directOffset: nil, getter: getter, reader: read, setter: setter, nilSetter: nilSetter)
        toManyMutators = mutators
    }
}

/// Typed readers over accessor closures for the common value types.
@usableFromInline
enum AccessorReaders {
    ///
    /// Not optional (see the public initialiser): other types read through ``general(_:)``.
    @inlinable
    static func make<Value>(_ get: @escaping @Sendable (AnyObject) -> Value) -> (AnyObject) -> KeyValueReading {
        switch ObjectIdentifier(Value.self) {
        case ObjectIdentifier(Int.self):
            return { .number(.integer(Int64(same(get($0), as: Int.self)))) }
        case ObjectIdentifier(Double.self):
            return { .number(.floating(same(get($0), as: Double.self))) }
        case ObjectIdentifier(Bool.self):
            return { .number(.boolean(same(get($0), as: Bool.self))) }
        case ObjectIdentifier(String.self):
            return { .string(same(get($0), as: String.self)) }
        case ObjectIdentifier(Int?.self):
            return { same(get($0), as: Int?.self).map { .number(.integer(Int64($0))) } ?? .null }
        case ObjectIdentifier(Double?.self):
            return { same(get($0), as: Double?.self).map { .number(.floating($0)) } ?? .null }
        case ObjectIdentifier(Bool?.self):
            return { same(get($0), as: Bool?.self).map { .number(.boolean($0)) } ?? .null }
        case ObjectIdentifier(String?.self):
            return { same(get($0), as: String?.self).map { .string($0) } ?? .null }
        default:
            if Value.self is AnyClass {
                return { .object(same(get($0), as: AnyObject.self)) }
            }
            if isOptionalClass(Value.self) {
                // `Optional<SomeClass>` has the layout of `Optional<AnyObject>`: one nullable pointer.
                return { object in
                    guard let value = same(get(object), as: AnyObject?.self) else { return .null }
                    return .object(value)
                }
            }
            return general(get)
        }
    }

    /// A reader that sorts the value `get` returns by kind (optionals and `Any` flattened, as
    /// the property's getter does).
    @usableFromInline
    static func general<Value>(_ get: @escaping @Sendable (AnyObject) -> Value) -> (AnyObject) -> KeyValueReading {
        if Value.self is any OptionalValue.Type || Value.self == Any.self {
            return { object in KeyValueReading(flattenOptional(get(object))) }
        }
        return { object in KeyValueReading(get(object)) }
    }

    /// Whether `type` is `Optional<C>` for a class `C`.
    @usableFromInline
    static func isOptionalClass(_ type: Any.Type) -> Bool {
        (type as? any OptionalValue.Type)?.wrappedType is AnyClass
    }

    /// `value`, whose type is exactly `T`, as a `T` (a copy, without a dynamic cast).
    @inlinable @inline(__always)
    static func same<Value, T>(_ value: Value, as _: T.Type) -> T {
        withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: T.self) }
    }
}
