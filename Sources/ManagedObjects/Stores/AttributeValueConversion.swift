// Attribute values to row constants and back to readings, without the dynamic casts of the
// general conversions for the common types (a save and a store write convert every value).
import Foundation
import KeyValueCoding
import Predicates

/// Conversions between an attribute's values and a row's constants, typed by the attribute.
///
/// Each fast path gives exactly what the general conversion gives
/// (``KeyValueConstant/init(_:)-(Any?)`` for a value, the attribute's `typedValue(from:)` then
/// `KeyValueReading(_:)` for a constant); any other value or type takes the general one.
enum AttributeValueConversion {
    /// The constant a row holds for `value`, a value of an attribute of `type`.
    static func constant(of value: Any, type: AttributeDescription.AttributeType) -> KeyValueConstant {
        switch type {
        case .string: if let string = exactly(value, String.self) { return .string(string) }
        case .integer64: if let number = exactly(value, Int64.self) { return .integer(number) }
        case .integer32: if let number = exactly(value, Int32.self) { return .integer(Int64(number)) }
        case .integer16: if let number = exactly(value, Int16.self) { return .integer(Int64(number)) }
        case .double: if let number = exactly(value, Double.self) { return .double(number) }
        case .boolean: if let flag = exactly(value, Bool.self) { return .bool(flag) }
        case .date: if let date = exactly(value, Date.self) { return .date(date) }
        default: break
        }
        return KeyValueConstant(value)
    }

    /// Whether ``exactConstant(of:type:)`` knows the type: its constants give back exactly the
    /// value they were made of.
    static func hasExactConstants(_ type: AttributeDescription.AttributeType) -> Bool {
        switch type {
        case .string, .integer64, .integer32, .integer16, .double, .boolean, .date: return true
        default: return false
        }
    }

    /// The constant of `value` when it is exactly of the Swift type of `type` (one of
    /// ``hasExactConstants(_:)``'s): what ``constant(of:type:)`` gives, and the attribute's
    /// `typedValue(from:)` gives `value` back; `nil` for a value of another type.
    static func exactConstant(of value: Any, type: AttributeDescription.AttributeType) -> KeyValueConstant? {
        switch type {
        case .string: return exactly(value, String.self).map { .string($0) }
        case .integer64: return exactly(value, Int64.self).map { .integer($0) }
        case .integer32: return exactly(value, Int32.self).map { .integer(Int64($0)) }
        case .integer16: return exactly(value, Int16.self).map { .integer(Int64($0)) }
        case .double: return exactly(value, Double.self).map { .double($0) }
        case .boolean: return exactly(value, Bool.self).map { .bool($0) }
        case .date: return exactly(value, Date.self).map { .date($0) }
        default: return nil
        }
    }

    /// The value a managed object holds for `constant` (a row's value of `attribute`, `nil` when
    /// absent), sorted by kind.
    static func reading(of constant: KeyValueConstant?, attribute: AttributeDescription) -> KeyValueReading {
        reading(of: constant, type: attribute.attributeType)
            ?? KeyValueReading(constant.flatMap { attribute.typedValue(from: $0) ?? nil })
    }

    /// ``reading(of:attribute:)`` for the common cases, from the attribute's type alone; `nil`
    /// for the others.
    @inline(__always)
    static func reading(of constant: KeyValueConstant?, type: AttributeDescription.AttributeType) -> KeyValueReading? {
        switch (type, constant) {
        case (_, nil), (_, .null?): return .null
        case (.string, .string(let string)?): return .string(string)
        case (.integer64, .integer(let number)?): return .number(.integer(number))
        case (.integer32, .integer(let number)?):
            return Int32(exactly: number) == nil ? .null : .number(.integer(number))
        case (.integer16, .integer(let number)?):
            return Int16(exactly: number) == nil ? .null : .number(.integer(number))
        case (.double, .double(let number)?): return .number(.floating(number))
        case (.boolean, .bool(let flag)?): return .number(.boolean(flag))
        default: return nil
        }
    }

    /// `value` as a `T` when that is exactly its type: read from the existential's inline buffer
    /// (the types used here all fit in it) instead of a dynamic cast.
    @inline(__always)
    private static func exactly<T>(_ value: Any, _: T.Type) -> T? {
        guard ObjectIdentifier(Swift.type(of: value)) == ObjectIdentifier(T.self) else { return nil }
        guard MemoryLayout<T>.size <= 3 * MemoryLayout<Int>.size, MemoryLayout<T>.alignment <= MemoryLayout<Int>.alignment,
              _isBitwiseTakable(T.self) else { return value as? T }
        return withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: T.self) }
    }
}
