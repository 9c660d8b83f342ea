// A value sorted by kind, for validation and default values: numbers, text, dates, bytes…
import Foundation
import Predicates

/// A value of an attribute sorted by kind, without bridging surprises: Swift numbers of any
/// width, `NSNumber`, `Decimal`, strings, dates, data, UUIDs and URLs.
enum AttributeScalar {
    case integer(Int64)
    /// An unsigned integer above `Int64.max`.
    case largeUnsigned(UInt64)
    case floating(Double)
    case decimal(Decimal)
    case bool(Bool)
    case string(String)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case url(URL)
    case other

    /// Sorts `value` by kind.
    init(_ value: Any) {
        // An NSNumber object first: it would otherwise bridge to `Bool` or any number type.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            self = Self.number(number)
            return
        }
        switch value {
        case let v as Bool: self = .bool(v)
        case let v as any BinaryInteger:
            if let small = Int64(exactly: v) { self = .integer(small) } else if let big = UInt64(exactly: v) {
                self = .largeUnsigned(big)
            } else { self = .other }
        case let v as Double: self = .floating(v)
        case let v as Float: self = .floating(Double(v))
        case let v as Decimal: self = .decimal(v)
        case let v as String: self = .string(v)
        case let v as Substring: self = .string(String(v))
        case let v as Date: self = .date(v)
        case let v as Data: self = .data(v)
        case let v as UUID: self = .uuid(v)
        case let v as URL: self = .url(v)
        default: self = .other
        }
    }

    /// Sorts a model constant by kind (`nil` for `.null`).
    init?(constant: KeyValueConstant) {
        switch constant {
        case .null: return nil
        case .bool(let v): self = .bool(v)
        case .integer(let v): self = .integer(v)
        case .unsignedInteger(let v): self = Int64(exactly: v).map { .integer($0) } ?? .largeUnsigned(v)
        case .double(let v): self = .floating(v)
        case .decimal(let v): self = .decimal(v)
        case .string(let v): self = .string(v)
        case .date(let v): self = .date(v)
        case .data(let v): self = .data(v)
        case .uuid(let v): self = .uuid(v)
        default:
            guard let value = constant.anyValue else { return nil }
            self.init(value)
        }
    }

    private static func number(_ number: NSNumber) -> AttributeScalar {
        switch String(cString: number.objCType) {
        case "c", "B":
            let v = number.int64Value
            return v == 0 || v == 1 ? .bool(v == 1) : .integer(v)
        case "s", "i", "l", "q": return .integer(number.int64Value)
        case "C", "S", "I", "L", "Q":
            let v = number.uint64Value
            return Int64(exactly: v).map { .integer($0) } ?? .largeUnsigned(v)
        default: return .floating(number.doubleValue)
        }
    }

    /// Whether it is a number (`Bool` is not).
    var isNumber: Bool {
        switch self {
        case .integer, .largeUnsigned, .floating, .decimal: return true
        default: return false
        }
    }

    /// The number as a `Double`, or `nil` when it is not a number.
    var doubleValue: Double? {
        switch self {
        case .integer(let v): return Double(v)
        case .largeUnsigned(let v): return Double(v)
        case .floating(let v): return v
        case .decimal(let v): return NSDecimalNumber(decimal: v).doubleValue
        default: return nil
        }
    }

    /// The number as an exact integer, or `nil` (not a number, not integral, or too large).
    var exactInteger: Int64? {
        switch self {
        case .integer(let v): return v
        case .floating(let v): return v.isFinite ? Int64(exactly: v) : nil
        case .decimal(let v):
            guard let d = doubleValue, d.rounded() == d, let i = Int64(exactly: d) else { return nil }
            return Decimal(i) == v ? i : nil
        default: return nil
        }
    }

    /// The number as a `Decimal`, or `nil`.
    var decimalValue: Decimal? {
        switch self {
        case .integer(let v): return Decimal(v)
        case .largeUnsigned(let v): return Decimal(v)
        case .floating(let v): return v.isFinite ? Decimal(v) : nil
        case .decimal(let v): return v
        default: return nil
        }
    }

    /// A date, or a number read as seconds since 2001-01-01 (as Xcode writes date bounds and
    /// defaults).
    var dateValue: Date? {
        if case .date(let d) = self { return d }
        return doubleValue.map { Date(timeIntervalSinceReferenceDate: $0) }
    }

    /// `a` compared with `b` when both are numbers: `-1`, `0` or `1`; exact for integers.
    static func compareNumbers(_ a: AttributeScalar, _ b: AttributeScalar) -> Int? {
        if case .integer(let x) = a, case .integer(let y) = b { return x < y ? -1 : (x == y ? 0 : 1) }
        if case .decimal = a, let x = a.decimalValue, let y = b.decimalValue { return x < y ? -1 : (x == y ? 0 : 1) }
        if case .decimal = b, let x = a.decimalValue, let y = b.decimalValue { return x < y ? -1 : (x == y ? 0 : 1) }
        guard let x = a.doubleValue, let y = b.doubleValue, !x.isNaN, !y.isNaN else { return nil }
        return x < y ? -1 : (x == y ? 0 : 1)
    }
}

/// Peels optionals of any depth and `NSNull` off a value: `nil` when nothing is inside.
func unwrappedAttributeValue(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let optional = value as? any AttributeOptionalProbe { return unwrappedAttributeValue(optional.probedValue) }
    if value is NSNull { return nil }
    return value
}

/// Lets ``unwrappedAttributeValue(_:)`` see through an `Optional` hidden in `Any`.
protocol AttributeOptionalProbe {
    var probedValue: Any? { get }
}

extension Optional: AttributeOptionalProbe {
    var probedValue: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
}
