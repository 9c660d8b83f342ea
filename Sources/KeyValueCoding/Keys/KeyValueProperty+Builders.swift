import Foundation
import ObjectGraphInternals

// MARK: - Building accessors

/// The address of a field inside an instance.
@inline(__always)
func fieldAddress<T>(_ object: AnyObject, _ offset: Int, _: T.Type) -> UnsafeMutablePointer<T> {
    (UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset)
        .assumingMemoryBound(to: T.self)
}

/// Converts `value` to `T`: as it is, or by numeric bridging.
///
/// - Returns: The converted value, or `nil` when `value` is an `Optional` holding `nil`.
@inline(__always)
func coerce<T>(_ value: Any, to: T.Type, key: String, owner: AnyObject) throws -> T? {
    if type(of: value) == T.self { return loadInline(value, as: T.self) }
    if isClassTarget(T.self), isSwiftCollection(type(of: value)) {
        // Casting would bridge the collection through Foundation (see `castWithoutBridging`),
        // which recurses without end for some members (`Set<Decimal>`).
        throw KeyValueCodingError.typeMismatch(key: key, type: typeName(type(of: owner)),
                                               expected: typeName(T.self), actual: typeName(type(of: value)))
    }
    if let exact = value as? T { return exact }
    return try coerceSlowly(value, to: T.self, key: key, owner: owner)
}

@inline(never)
func coerceSlowly<T>(_ value: Any, to: T.Type, key: String, owner: AnyObject) throws -> T? {
    if isNilOptional(value) { return nil }
    if let numericType = T.self as? any KeyValueNumeric.Type, let number = KeyValueNumber(value) {
        guard let converted = numericType.init(bridging: number) else {
            throw KeyValueCodingError.valueOutOfRange(
                key: key, type: typeName(type(of: owner)), value: String(describing: value))
        }
        return (converted as! T)
    }
    if let rawType = T.self as? any RawRepresentable.Type {
        switch makeRaw(rawType, value) {
        case .value(let converted): return (converted as! T)
        case .notARawValue:
            throw KeyValueCodingError.invalidRawValue(
                key: key, type: typeName(type(of: owner)), expected: typeName(T.self),
                value: value is String ? "\"\(value)\"" : String(describing: value))
        case .otherType: break
        }
    }
    throw KeyValueCodingError.typeMismatch(
        key: key, type: typeName(type(of: owner)), expected: typeName(T.self),
        actual: typeName(type(of: value)))
}

/// The outcome of building a raw-representable value from a value.
private enum RawConversion {
    case value(Any)
    /// The value is of the raw type (or a number bridging to it) but no case has it.
    case notARawValue
    /// The value is not of the raw type.
    case otherType
}

/// Builds an enumeration (or other raw-representable) value from its raw value, so that an
/// `Int`-backed enum property accepts numbers and a `String`-backed one strings.
private func makeRaw<R: RawRepresentable>(_: R.Type, _ value: Any) -> RawConversion {
    if let raw = value as? R.RawValue { return R(rawValue: raw).map { .value($0) } ?? .notARawValue }
    if let numericRaw = R.RawValue.self as? any KeyValueNumeric.Type,
       let number = KeyValueNumber(value),
       let raw = numericRaw.init(bridging: number) as? R.RawValue {
        return R(rawValue: raw).map { .value($0) } ?? .notARawValue
    }
    return .otherType
}

/// An optional, seen through `Any`: lets nested optionals be flattened.
protocol OptionalValue {
    var wrappedAny: Any? { get }
    static var wrappedType: Any.Type { get }
    /// A getter returning `get`'s optional (of this type) as a flat `Any?`. `Value` must be
    /// `Self`.
    static func accessorGetter<Value>(_ get: @escaping @Sendable (AnyObject) -> Value) -> (AnyObject) -> Any?
}

extension Optional: OptionalValue {
    var wrappedAny: Any? {
        switch self {
        case .some(let value): return flattenOptional(value)
        case .none: return nil
        }
    }
    static var wrappedType: Any.Type { Wrapped.self }

    static func accessorGetter<Value>(_ get: @escaping @Sendable (AnyObject) -> Value) -> (AnyObject) -> Any? {
        precondition(Value.self == Self.self, "accessorGetter: \(Value.self) is not \(Self.self)")
        if Wrapped.self is any OptionalValue.Type || Wrapped.self == Any.self {
            // A nested optional or an `Any` may hold more optionals: flatten every level.
            return { object in flattenOptional(get(object)) }
        }
        return { object in
            // `Value` is `Self` (checked above): reinterpret, without a dynamic cast.
            switch unsafeBitCast(get(object), to: Self.self) {
            case .some(let value): return value
            case .none: return nil
            }
        }
    }
}

/// Unwraps an `Any` holding an `Optional` (at any depth) into a plain `Any?`.
///
/// - Parameter value: A value that may be an `Optional` seen through `Any`.
/// - Returns: The innermost wrapped value, or `nil`.
///
/// `package`: shared with the key-value observing and predicate layers.
package func flattenOptional(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let unwrap = ValueKind.of(type(of: value)).unwrap { return unwrap(value) }
    return value
}

/// Whether `value` is an `Optional` that holds `nil`.
func isNilOptional(_ value: Any) -> Bool {
    if let unwrap = ValueKind.of(type(of: value)).unwrap {
        if case .none = unwrap(value) { return true }
    }
    return false
}

enum PropertyBuilder {
    /// A stored property of type `T` at `offset`.
    @_specialize(exported: false, where T == Int)
    @_specialize(exported: false, where T == Double)
    @_specialize(exported: false, where T == String)
    @_specialize(exported: false, where T == Bool)
    static func stored<T>(_: T.Type, key: String, offset: Int) -> KeyValueProperty {
        if let optionalType = T.self as? any OptionalValue.Type {
            return optionalStored(optionalType.wrappedType, key: key, offset: offset, declared: T.self)
        }
        return KeyValueProperty(
            key: key, valueType: T.self, storage: .stored(offset: offset), isOptional: false,
            directOffset: offset, getter: { object in fieldAddress(object, offset, T.self).pointee },
            setter: { object, value, notify in
                guard let converted = try coerce(value, to: T.self, key: key, owner: object) else {
                    try object.setNilValueForKey(key)
                    return
                }
                if notify {
                    object.willChangeValue(forKey: key)
                    fieldAddress(object, offset, T.self).pointee = converted
                    object.didChangeValue(forKey: key)
                } else {
                    fieldAddress(object, offset, T.self).pointee = converted
                }
            },
            nilSetter: nil)
    }

    /// A stored property of type `Optional<W>` at `offset`.
    static func optionalStored(_ wrapped: Any.Type, key: String, offset: Int,
                               declared: Any.Type) -> KeyValueProperty {
        func build<W>(_: W.Type) -> KeyValueProperty {
            KeyValueProperty(
                key: key, valueType: declared, storage: .stored(offset: offset), isOptional: true,
                directOffset: offset, getter: optionalGetter(W.self, offset: offset),
                setter: { object, value, notify in
                    let converted = try coerce(value, to: W.self, key: key, owner: object)
                    if notify { object.willChangeValue(forKey: key) }
                    fieldAddress(object, offset, W?.self).pointee = converted
                    if notify { object.didChangeValue(forKey: key) }
                },
                nilSetter: { object, notify in
                    if notify { object.willChangeValue(forKey: key) }
                    fieldAddress(object, offset, W?.self).pointee = nil
                    if notify { object.didChangeValue(forKey: key) }
                })
        }
        return _openExistential(wrapped, do: build)
    }

    /// The getter of an `Optional<W>` field, specialised for the common wrapped types so that
    /// reads do not look up `Optional<W>` metadata at run time.
    static func optionalGetter<W>(_: W.Type, offset: Int) -> (AnyObject) -> Any? {
        if W.self is AnyClass {
            // An optional class reference is one nullable pointer, whatever the class.
            return { object in fieldAddress(object, offset, AnyObject?.self).pointee }
        }
        if W.self == String.self { return concreteOptionalGetter(String.self, offset: offset) }
        if W.self == Int.self { return concreteOptionalGetter(Int.self, offset: offset) }
        if W.self == Double.self { return concreteOptionalGetter(Double.self, offset: offset) }
        if W.self == Bool.self { return concreteOptionalGetter(Bool.self, offset: offset) }
        if W.self == Date.self { return concreteOptionalGetter(Date.self, offset: offset) }
        let isNested = W.self is any OptionalValue.Type
        return { object in
            guard let value = fieldAddress(object, offset, W?.self).pointee else { return nil }
            return isNested ? flattenOptional(value) : value
        }
    }

    @_specialize(exported: false, where W == String)
    @_specialize(exported: false, where W == Int)
    @_specialize(exported: false, where W == Double)
    @_specialize(exported: false, where W == Bool)
    @_specialize(exported: false, where W == Date)
    private static func concreteOptionalGetter<W>(_: W.Type, offset: Int) -> (AnyObject) -> Any? {
        { object in fieldAddress(object, offset, W?.self).pointee }
    }

    /// A property wrapper `W` whose storage is at `offset`.
    static func wrapped<W: KeyValuePropertyWrapper>(_: W.Type, key: String, offset: Int) -> KeyValueProperty {
        let optionalType = W.Value.self as? any OptionalValue.Type
        func store(_ object: any KeyValueCodable, _ value: W.Value, _ notify: Bool) {
            let address = fieldAddress(object, offset, W.self)
            if notify {
                W.setKeyValueWrappedValue(value, storage: address, object: object, key: key)
            } else {
                address.pointee.keyValueWrappedValue = value
            }
        }
        var nilSetter: ((any KeyValueCodable, Bool) throws -> Void)?
        if optionalType != nil {
            nilSetter = { object, notify in
                // `W.Value` is an Optional here, so a nil `Any?` converts to it.
                let none: Any? = nil
                store(object, none as! W.Value, notify)
            }
        }
        // Where the wrapper keeps its value, when it says: read there as a stored field.
        let directOffset = W.keyValueWrappedValueOffset.map { offset + $0 }
        let getter: (AnyObject) -> Any?
        if let directOffset {
            getter = directGetter(W.Value.self, offset: directOffset)
        } else {
            getter = { object in
                let value = fieldAddress(object, offset, W.self).pointee.keyValueWrappedValue
                return optionalType == nil ? value : flattenOptional(value)
            }
        }
        return KeyValueProperty(
            key: key, valueType: W.Value.self, storage: .wrapped(offset: offset, wrapperType: W.self),
            isOptional: optionalType != nil, directOffset: directOffset, getter: getter,
            setter: { object, value, notify in
                if let optionalType {
                    let converted = try coerceOptional(value, wrapped: optionalType.wrappedType,
                                                       as: W.Value.self, key: key, owner: object)
                    store(object, converted, notify)
                    return
                }
                guard let converted = try coerce(value, to: W.Value.self, key: key, owner: object) else {
                    try object.setNilValueForKey(key)
                    return
                }
                store(object, converted, notify)
            },
            nilSetter: nilSetter)
    }

    /// The getter of a value of type `T` stored at `offset` (flattening optionals).
    static func directGetter<T>(_: T.Type, offset: Int) -> (AnyObject) -> Any? {
        if let optionalType = T.self as? any OptionalValue.Type {
            func open<W>(_: W.Type) -> (AnyObject) -> Any? { optionalGetter(W.self, offset: offset) }
            return _openExistential(optionalType.wrappedType, do: open)
        }
        return { object in fieldAddress(object, offset, T.self).pointee }
    }

    /// A computed key reached through `keyPath`.
    static func computed(key: String, keyPath: AnyKeyPath) -> KeyValueProperty {
        let pathType = type(of: keyPath)
        func withRoot<Root>(_: Root.Type) -> KeyValueProperty {
            func withValue<Value>(_: Value.Type) -> KeyValueProperty {
                let isOptional = Value.self is any OptionalValue.Type
                var setter: ((any KeyValueCodable, Any, Bool) throws -> Void)?
                var nilSetter: ((any KeyValueCodable, Bool) throws -> Void)?
                if let writable = keyPath as? ReferenceWritableKeyPath<Root, Value> {
                    func store(_ object: any KeyValueCodable, _ value: Value, _ notify: Bool) {
                        guard let root = object as? Root else { return }
                        if notify { object.willChangeValue(forKey: key) }
                        root[keyPath: writable] = value
                        if notify { object.didChangeValue(forKey: key) }
                    }
                    if let optionalType = Value.self as? any OptionalValue.Type {
                        setter = { object, value, notify in
                            let converted = try coerceOptional(value, wrapped: optionalType.wrappedType,
                                                               as: Value.self, key: key, owner: object)
                            store(object, converted, notify)
                        }
                        nilSetter = { object, notify in
                            let none: Any? = nil
                            store(object, none as! Value, notify)
                        }
                    } else {
                        setter = { object, value, notify in
                            guard let converted = try coerce(value, to: Value.self, key: key, owner: object)
                            else {
                                try object.setNilValueForKey(key)
                                return
                            }
                            store(object, converted, notify)
                        }
                    }
                }
                return KeyValueProperty(
                    key: key, valueType: Value.self, storage: .computed(keyPath),
                    isOptional: isOptional,
                    getter: { object in
                        guard let root = object as? Root else { return nil }
                        return flattenOptional(root[keyPath: keyPath as! KeyPath<Root, Value>])
                    },
                    setter: setter, nilSetter: nilSetter)
            }
            return _openExistential(pathType.valueType, do: withValue)
        }
        return _openExistential(pathType.rootType, do: withRoot)
    }
}

/// Converts `value` into `Optional<Wrapped>` typed as `V` (which is that optional type).
func coerceOptional<V>(_ value: Any, wrapped: Any.Type, as: V.Type, key: String,
                       owner: AnyObject) throws -> V {
    if let exact = value as? V { return exact }
    func convert<W>(_: W.Type) throws -> V {
        let converted: W? = try coerce(value, to: W.self, key: key, owner: owner)
        return converted as! V
    }
    return try _openExistential(wrapped, do: convert)
}
