import Foundation

/// A number taken out of an `Any`, before it is stored into a property of another numeric type.
///
/// This mirrors what `NSNumber` does on Apple platforms: every integer, floating-point,
/// `Decimal` and `Bool` value can be read as any other of these types.
public enum KeyValueNumber: Sendable, Hashable {
    /// A signed integer.
    case integer(Int64)
    /// An unsigned integer.
    case unsigned(UInt64)
    /// A floating-point number.
    case floating(Double)
    /// A decimal number.
    case decimal(Decimal)
    /// A Boolean (1 or 0 as a number).
    case boolean(Bool)

    /// The number as a `Double` (exact for the integers that a `Double` holds).
    public var doubleValue: Double {
        switch self {
        case .integer(let v): return Double(v)
        case .unsigned(let v): return Double(v)
        case .floating(let v): return v
        case .decimal(let v): return NSDecimalNumber(decimal: v).doubleValue
        case .boolean(let v): return v ? 1 : 0
        }
    }

    /// Reads a number out of `value`, or returns nil when `value` is not a number, `Bool` or
    /// `NSNumber`.
    public init?(_ value: Any) {
        guard let read = ValueKind.of(type(of: value)).number else { return nil }
        self = read(value)
    }

    init(_ number: NSNumber) {
        let type = String(cString: number.objCType)
        switch type {
        case "f", "d": self = .floating(number.doubleValue)
        case "Q", "L", "I", "S", "C": self = .unsigned(number.uint64Value)
        case "B": self = .boolean(number.boolValue)
        default: self = .integer(number.int64Value)
        }
    }
}

/// A numeric (or `Bool`) type that key-value coding converts values into, as `NSNumber` would.
///
/// ObjectGraph conforms the standard integer and floating-point types, `Bool` and `Decimal`.
public protocol KeyValueNumeric {
    /// The value as a bridged number.
    var bridgedNumber: KeyValueNumber { get }
    /// Converts a bridged number into this type; nil when it does not fit.
    init?(bridging number: KeyValueNumber)
}

extension BinaryInteger where Self: KeyValueNumeric {
    @usableFromInline
    init?(bridgingInteger number: KeyValueNumber) {
        switch number {
        case .integer(let v): self.init(exactly: v)
        case .unsigned(let v): self.init(exactly: v)
        case .floating(let v):
            guard v.isFinite else { return nil }
            self.init(exactly: v.rounded(.towardZero))  // NSNumber's intValue truncates
        case .decimal(let v):
            guard v.isFinite else { return nil }
            var value = v
            var truncated = Decimal()
            NSDecimalRound(&truncated, &value, 0, v.sign == .minus ? .up : .down)  // toward zero
            // Exact conversions through the 64-bit types, checked against their ranges.
            if truncated >= Decimal(Int64.min), truncated <= Decimal(Int64.max) {
                self.init(exactly: NSDecimalNumber(decimal: truncated).int64Value)
            } else if truncated >= 0, truncated <= Decimal(UInt64.max) {
                self.init(exactly: NSDecimalNumber(decimal: truncated).uint64Value)
            } else {
                return nil
            }
        case .boolean(let v): self = v ? 1 : 0
        }
    }
}

extension BinaryFloatingPoint where Self: KeyValueNumeric {
    /// Converts to a floating-point type; nil when a finite number becomes infinite (too large
    /// for the type, e.g. 1e300 into a `Float`).
    @usableFromInline
    init?(bridgingFloat number: KeyValueNumber) {
        switch number {
        case .integer(let v): self.init(v)
        case .unsigned(let v): self.init(v)
        case .floating(let v): self.init(v)
        case .decimal(let v): self.init(NSDecimalNumber(decimal: v).doubleValue)
        case .boolean(let v): self = v ? 1 : 0
        }
        if !isFinite, number.doubleValue.isFinite { return nil }
    }
}

extension Int: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .integer(Int64(self)) }
    public init?(bridging number: KeyValueNumber) { self.init(bridgingInteger: number) }
}
extension Int8: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .integer(Int64(self)) }
    public init?(bridging number: KeyValueNumber) { self.init(bridgingInteger: number) }
}
extension Int16: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .integer(Int64(self)) }
    public init?(bridging number: KeyValueNumber) { self.init(bridgingInteger: number) }
}
extension Int32: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .integer(Int64(self)) }
    public init?(bridging number: KeyValueNumber) { self.init(bridgingInteger: number) }
}
extension Int64: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .integer(self) }
    public init?(bridging number: KeyValueNumber) { self.init(bridgingInteger: number) }
}
extension UInt: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .unsigned(UInt64(self)) }
    public init?(bridging number: KeyValueNumber) { self.init(bridgingInteger: number) }
}
extension UInt8: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .unsigned(UInt64(self)) }
    public init?(bridging number: KeyValueNumber) { self.init(bridgingInteger: number) }
}
extension UInt16: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .unsigned(UInt64(self)) }
    public init?(bridging number: KeyValueNumber) { self.init(bridgingInteger: number) }
}
extension UInt32: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .unsigned(UInt64(self)) }
    public init?(bridging number: KeyValueNumber) { self.init(bridgingInteger: number) }
}
extension UInt64: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .unsigned(self) }
    public init?(bridging number: KeyValueNumber) { self.init(bridgingInteger: number) }
}
extension Double: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .floating(self) }
    public init?(bridging number: KeyValueNumber) { self.init(bridgingFloat: number) }
}
extension Float: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .floating(Double(self)) }
    public init?(bridging number: KeyValueNumber) { self.init(bridgingFloat: number) }
}
extension Bool: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .boolean(self) }
    public init?(bridging number: KeyValueNumber) {
        switch number {
        case .integer(let v): self = v != 0
        case .unsigned(let v): self = v != 0
        case .floating(let v): self = v != 0  // NaN is non-zero, as with NSNumber's boolValue
        case .decimal(let v): self = !v.isZero
        case .boolean(let v): self = v
        }
    }
}
extension Decimal: KeyValueNumeric {
    public var bridgedNumber: KeyValueNumber { .decimal(self) }
    public init?(bridging number: KeyValueNumber) {
        switch number {
        case .integer(let v): self.init(v)
        case .unsigned(let v): self.init(v)
        case .floating(let v):
            // Beyond about 1e165, or below 1e-130, `Decimal` has no value (it gives NaN).
            guard v.isFinite, abs(v) < 1e160 else { return nil }
            self.init(v)
            if isNaN { return nil }
        case .decimal(let v): self = v
        case .boolean(let v): self = v ? 1 : 0
        }
    }
}
