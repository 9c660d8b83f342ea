import Foundation

/// A value read by key-value coding, sorted by kind so that numbers, strings and objects need
/// no `Any` box.
///
/// Predicates, sort descriptors and key-path walks read through ``KeyValueProperty/reading(of:)``
/// and ``KeyValuePath/reading(of:)``: a stored `Int` comes back as `.number(.integer(…))`, a
/// `String` as `.string(…)`, an object as `.object(…)`, without the cost of boxing the value
/// into an `Any` and casting it back. A `RawRepresentable` value (an enumeration with raw
/// values) reads as its raw value, as an `@objc` enumeration reads as a number on Apple
/// platforms.
public enum KeyValueReading {
    /// `nil` (or `NSNull`).
    case null
    /// A number or `Bool`.
    case number(KeyValueNumber)
    /// A string.
    case string(String)
    /// A class instance.
    case object(AnyObject)
    /// Any other value.
    case value(Any)

    /// Sorts `value` by kind.
    ///
    /// - Parameter value: Any value, or `nil`.
    public init(_ value: Any?) {
        guard let value else {
            self = .null
            return
        }
        let kind = ValueKind.of(type(of: value))
        if let number = kind.number {
            self = .number(number(value))
        } else if kind.type == String.self {
            self = .string(loadInline(value, as: String.self))
        } else if kind.category == .null {
            self = .null
        } else if let unwrap = kind.unwrap {
            self = KeyValueReading(unwrap(value))
        } else if let rawValue = kind.rawValue {
            self = KeyValueReading(rawValue(value))
        } else if kind.isClass {
            self = .object(value as AnyObject)
        } else {
            self = .value(value)
        }
    }

    /// The value as `Any?` (numbers as their `KeyValueNumber` payload's Swift type).
    public var anyValue: Any? {
        switch self {
        case .null: return nil
        case .number(let number):
            switch number {
            case .integer(let v): return Int(exactly: v) ?? v
            case .unsigned(let v): return UInt(exactly: v) ?? v
            case .floating(let v): return v
            case .decimal(let v): return v
            case .boolean(let v): return v
            }
        case .string(let string): return string
        case .object(let object): return object
        case .value(let value): return value
        }
    }
}

extension KeyValueProperty {
    /// Reads the value of this property in `object`, sorted by kind.
    ///
    /// - Parameter object: An instance of the class (or a subclass) this property was found in.
    /// - Returns: The value; stored numbers, strings and objects are read without an `Any` box.
    /// - Complexity: O(1).
    @inlinable
    public func reading(of object: AnyObject) -> KeyValueReading {
        reader(object)
    }
}

/// Builds the typed reader of a property: direct field reads for the common stored types.
enum ReaderBuilder {
    static func make(directOffset: Int?, valueType: Any.Type,
                     getter: @escaping (AnyObject) -> Any?) -> (AnyObject) -> KeyValueReading {
        guard let offset = directOffset else {
            return { object in KeyValueReading(getter(object)) }
        }
        if let reader = scalarReader(valueType, offset: offset) { return reader }
        if valueType is AnyClass {
            return { object in .object(fieldAddress(object, offset, AnyObject.self).pointee) }
        }
        if let optional = valueType as? any OptionalValue.Type, optional.wrappedType is AnyClass {
            return { object in
                guard let value = fieldAddress(object, offset, AnyObject?.self).pointee else { return .null }
                return .object(value)
            }
        }
        return { object in KeyValueReading(getter(object)) }
    }

    private static func scalarReader(_ type: Any.Type, offset: Int) -> ((AnyObject) -> KeyValueReading)? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Int.self):
            return { .number(.integer(Int64(fieldAddress($0, offset, Int.self).pointee))) }
        case ObjectIdentifier(Double.self):
            return { .number(.floating(fieldAddress($0, offset, Double.self).pointee)) }
        case ObjectIdentifier(Bool.self):
            return { .number(.boolean(fieldAddress($0, offset, Bool.self).pointee)) }
        case ObjectIdentifier(String.self):
            return { .string(fieldAddress($0, offset, String.self).pointee) }
        case ObjectIdentifier(Int?.self):
            return { object in
                fieldAddress(object, offset, Int?.self).pointee.map { .number(.integer(Int64($0))) } ?? .null
            }
        case ObjectIdentifier(Double?.self):
            return { object in
                fieldAddress(object, offset, Double?.self).pointee.map { .number(.floating($0)) } ?? .null
            }
        case ObjectIdentifier(Bool?.self):
            return { object in
                fieldAddress(object, offset, Bool?.self).pointee.map { .number(.boolean($0)) } ?? .null
            }
        case ObjectIdentifier(String?.self):
            return { object in fieldAddress(object, offset, String?.self).pointee.map { .string($0) } ?? .null }
        default:
            return nil
        }
    }
}
