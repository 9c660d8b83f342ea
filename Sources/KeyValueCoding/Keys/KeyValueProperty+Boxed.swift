// Properties for key tables of other layers that hold their values boxed or typed in storage
// of their own (managed objects): no generic wrapping around the closures they supply.

extension KeyValueProperty {
    /// Creates an accessor property whose closures work on the boxed value directly.
    ///
    /// Unlike the public ``init(key:type:get:set:read:mutators:)``, nothing is wrapped around
    /// the closures: `get` returns the value as `value(forKey:)` answers it (flat: never an
    /// optional inside the `Any?`), and `set` receives what `setValue(_:forKey:)` was given,
    /// already known to be neither `nil` nor `NSNull` (those reach `setNil`), and converts it
    /// itself (``convertedValue(_:to:key:owner:)`` does what key-value coding does). A layer
    /// whose values are already boxed then reads and stores them without a cast.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - valueType: The declared type (`Optional<T>` for a key that accepts `nil`).
    ///   - notifiesAutomatically: Whether stores notify, when the table serves objects of one
    ///     class only (the class's answer, asked once); `nil` asks the object's class per store.
    ///   - get: The value of the key in an object.
    ///   - read: The value sorted by kind, for predicates and sorting.
    ///   - set: Converts and stores a value that is neither `nil` nor `NSNull`, with change
    ///     notifications when its last argument is `true`; `nil` makes the key read-only.
    ///   - setNil: Stores `nil`, with notifications when asked; `nil` for a key that does not
    ///     accept it (`setNilValueForKey(_:)` is called instead).
    package convenience init(boxedKey key: String, valueType: Any.Type, notifiesAutomatically: Bool?,
                             get: @escaping (AnyObject) -> Any?,
                             read: @escaping (AnyObject) -> KeyValueReading,
                             set: ((any KeyValueCodable, Any, Bool) throws -> Void)?,
                             setNil: ((any KeyValueCodable, Bool) throws -> Void)?) {
        self.init(key: key, valueType: valueType, storage: .accessor, isOptional: setNil != nil,
                  directOffset: nil, getter: get, reader: read, setter: set, nilSetter: setNil,
                  automaticNotification: notifiesAutomatically)
    }

    /// The reader that the public initialiser builds over a typed getter: `Int`, `Double`,
    /// `Bool` and `String` values (and their optionals) and class references are read without
    /// boxing. Inlined, so that it is specialised for `Value` where the property is made.
    @inlinable
    package static func typedReader<Value>(_ get: @escaping @Sendable (AnyObject) -> Value) -> (AnyObject) -> KeyValueReading {
        AccessorReaders.make(get)
    }

    /// Converts a value given to `setValue(_:forKey:)` to `T` as key-value coding does for a
    /// property of type `T` or `T?`: as it is, by numeric bridging, or from a raw value.
    ///
    /// For the values that are not exactly a `T` (check that first: it is one compare).
    ///
    /// - Returns: The converted value; `nil` when `value` is an `Optional` holding `nil`.
    /// - Throws: ``KeyValueCodingError/typeMismatch(key:type:expected:actual:)`` naming `key`
    ///   and `owner`'s type for a value of another kind,
    ///   ``KeyValueCodingError/valueOutOfRange(key:type:value:)`` for a number that does not fit.
    package static func convertedValue<T>(_ value: Any, to _: T.Type, key: String, owner: AnyObject) throws -> T? {
        try coerce(value, to: T.self, key: key, owner: owner)
    }
}
