// The one order of numbers and dates that collection operators (`@min`, `@max`), predicates
// (comparisons, BETWEEN, IN) and sort descriptors share.
import Foundation

/// The order of numbers (across integer, floating-point, `Decimal` and `Bool` values) and of
/// dates, shared by every layer that compares values.
///
/// The order is a strict weak ordering, so sorting, `@min`/`@max` and predicates agree:
/// - NaN (a `Double`, `Float` or `Decimal` NaN, or a date whose interval is NaN) equals every
///   other NaN and comes before every number (`-infinity` included).
/// - Integers (`Int64`, `UInt64`, `Bool` as 0 and 1) compare exactly with each other and with
///   floating-point numbers: `Int64.max` is less than `9223372036854775808.0`, which a
///   conversion to `Double` would call equal.
/// - `Decimal`s compare exactly with integers and with each other. A `Double` compared with a
///   `Decimal` is read as a decimal: exactly when it is an integer below 2^64, otherwise as the
///   shortest decimal that converts back to the same `Double` (so `Decimal(0.1)` written as
///   `0.1` equals the `Double` `0.1`, as Apple's `NSDecimalNumber` comparisons say). That
///   reading keeps the order of the doubles and of the integers, so mixed collections still
///   sort consistently. Doubles beyond `Decimal`'s range (about 1e160 and above) are larger in
///   magnitude than every decimal; doubles below 1e-100 in magnitude compare as doubles.
///
/// Thread safety: stateless; call it from any thread.
package enum NumberOrdering {
    /// The order of two numbers.
    ///
    /// - Complexity: O(1); a `Double` against a `Decimal` that is not an integer formats and
    ///   parses the double once.
    @inlinable @inline(__always)
    package static func compare(_ lhs: KeyValueNumber, _ rhs: KeyValueNumber) -> ComparisonResult {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): return ordered(a, b)
        case let (.floating(a), .floating(b)): return ordered(a, b)
        default: return compareMixed(lhs, rhs)
        }
    }

    /// The order of two values of one `Comparable` type by `<` and `==`.
    ///
    /// For integers and strings; `Double`, `Decimal` and `Date` have their own overloads that
    /// put NaN first.
    @inlinable @inline(__always)
    package static func ordered<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
    }

    /// The order of two doubles: NaN equals NaN and comes before every other number.
    @inlinable @inline(__always)
    package static func ordered(_ a: Double, _ b: Double) -> ComparisonResult {
        if a < b { return .orderedAscending }
        if a > b { return .orderedDescending }
        if a == b { return .orderedSame }
        return a.isNaN ? (b.isNaN ? .orderedSame : .orderedAscending) : .orderedDescending
    }

    /// The order of two decimals: NaN equals NaN and comes before every other number.
    package static func ordered(_ a: Decimal, _ b: Decimal) -> ComparisonResult {
        if a.isNaN || b.isNaN { return nanOrder(a.isNaN, b.isNaN) }
        return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
    }

    /// Dates in the order of their time intervals, NaN first.
    @inlinable @inline(__always)
    package static func ordered(_ a: Date, _ b: Date) -> ComparisonResult {
        ordered(a.timeIntervalSinceReferenceDate, b.timeIntervalSinceReferenceDate)
    }

    /// A key that numbers equal under ``compare(_:_:)`` share, for hashing: the number's floor,
    /// computed exactly and clamped to `Int64`; nil for NaN (every NaN is equal).
    ///
    /// A `Double`'s `doubleValue` round trip through `Decimal` is not exact on every platform,
    /// so hashing `doubleValue` would give a `Decimal` and the `Double` it equals different
    /// hashes; their floors are always the same.
    package static func hashKey(_ number: KeyValueNumber) -> Int64? {
        switch number {
        case .integer(let v): return v
        case .unsigned(let v): return Int64(clamping: v)
        case .boolean(let v): return v ? 1 : 0
        case .floating(let v):
            if v.isNaN { return nil }
            let floor = v.rounded(.down)
            if floor >= 0x1p63 { return .max }
            if floor < -0x1p63 { return .min }
            return Int64(floor)
        case .decimal(let v):
            if v.isNaN { return nil }
            var value = v
            var floor = Decimal()
            NSDecimalRound(&floor, &value, 0, .down)  // toward negative infinity
            if floor >= Decimal(Int64.max) { return .max }
            if floor <= Decimal(Int64.min) { return .min }
            return NSDecimalNumber(decimal: floor).int64Value
        }
    }

    // MARK: Mixed kinds

    private static func nanOrder(_ leftIsNaN: Bool, _ rightIsNaN: Bool) -> ComparisonResult {
        leftIsNaN ? (rightIsNaN ? .orderedSame : .orderedAscending) : .orderedDescending
    }

    private static func isNaN(_ number: KeyValueNumber) -> Bool {
        switch number {
        case .floating(let v): return v.isNaN
        case .decimal(let v): return v.isNaN
        case .integer, .unsigned, .boolean: return false
        }
    }

    private static func reversed(_ order: ComparisonResult) -> ComparisonResult {
        switch order {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    /// Every pair but two integers or two doubles (out of line: the inlined part stays small).
    @inline(never)
    package static func compareMixed(_ lhs: KeyValueNumber, _ rhs: KeyValueNumber) -> ComparisonResult {
        let (leftIsNaN, rightIsNaN) = (isNaN(lhs), isNaN(rhs))
        if leftIsNaN || rightIsNaN { return nanOrder(leftIsNaN, rightIsNaN) }
        switch (lhs, rhs) {
        case let (.floating(a), .floating(b)): return ordered(a, b)
        case (_, .floating(let b)): return compare(lhs, toDouble: b)
        case (.floating(let a), _): return reversed(compare(rhs, toDouble: a))
        case let (.decimal(a), .decimal(b)): return ordered(a, b)
        case (.decimal(let a), _): return ordered(a, exactDecimal(rhs))
        case (_, .decimal(let b)): return ordered(exactDecimal(lhs), b)
        default: return compareIntegers(lhs, rhs)
        }
    }

    /// Two integers (or Booleans), exactly.
    private static func compareIntegers(_ lhs: KeyValueNumber, _ rhs: KeyValueNumber) -> ComparisonResult {
        switch (lhs, rhs) {
        case let (.unsigned(a), .unsigned(b)): return ordered(a, b)
        case (.unsigned(let a), _): return reversed(compare(signed(rhs), a))
        case (_, .unsigned(let b)): return compare(signed(lhs), b)
        default: return ordered(signed(lhs), signed(rhs))
        }
    }

    private static func compare(_ a: Int64, _ b: UInt64) -> ComparisonResult {
        a < 0 ? .orderedAscending : ordered(UInt64(a), b)
    }

    /// A signed integer or a Boolean (0 or 1) as an `Int64`.
    private static func signed(_ number: KeyValueNumber) -> Int64 {
        switch number {
        case .integer(let v): return v
        case .boolean(let v): return v ? 1 : 0
        case .unsigned(let v): return Int64(clamping: v)  // not reached: callers sort unsigned out
        case .floating(let v): return Int64(v)            // not reached
        case .decimal: return 0                           // not reached
        }
    }

    /// An integer, a Boolean or a decimal as a `Decimal` (exact: `Decimal` holds 38 digits).
    private static func exactDecimal(_ number: KeyValueNumber) -> Decimal {
        switch number {
        case .integer(let v): return Decimal(v)
        case .unsigned(let v): return Decimal(v)
        case .boolean(let v): return v ? 1 : 0
        case .decimal(let v): return v
        case .floating(let v): return Decimal(v)  // not reached: callers sort floating out
        }
    }

    /// A number that is not NaN against a double that is not NaN.
    private static func compare(_ number: KeyValueNumber, toDouble d: Double) -> ComparisonResult {
        switch number {
        case .integer(let a): return compare(a, exactly: d)
        case .unsigned(let a): return compare(a, exactly: d)
        case .boolean(let a): return compare(Int64(a ? 1 : 0), exactly: d)
        case .floating(let a): return ordered(a, d)
        case .decimal(let a): return compare(a, toDouble: d)
        }
    }

    /// An `Int64` against a double, without rounding the integer to a double.
    private static func compare(_ a: Int64, exactly d: Double) -> ComparisonResult {
        if d >= 0x1p63 { return .orderedAscending }
        if d < -0x1p63 { return .orderedDescending }
        let whole = Int64(d)  // truncates toward zero; in range here
        if a != whole { return ordered(a, whole) }
        let fraction = d - Double(whole)  // exact
        return fraction > 0 ? .orderedAscending : (fraction < 0 ? .orderedDescending : .orderedSame)
    }

    /// A `UInt64` against a double, without rounding the integer to a double.
    private static func compare(_ a: UInt64, exactly d: Double) -> ComparisonResult {
        if d >= 0x1p64 { return .orderedAscending }
        if d < 0 { return .orderedDescending }
        let whole = UInt64(d)
        if a != whole { return ordered(a, whole) }
        return d > Double(whole) ? .orderedAscending : .orderedSame
    }

    /// A decimal against a double (neither NaN), reading the double as a decimal.
    private static func compare(_ a: Decimal, toDouble d: Double) -> ComparisonResult {
        if d.isInfinite || abs(d) >= 1e160 { return d > 0 ? .orderedAscending : .orderedDescending }
        if d != 0, abs(d) < 1e-100 { return ordered(NSDecimalNumber(decimal: a).doubleValue, d) }
        return ordered(a, decimal(reading: d))
    }

    /// A finite double between 1e-100 and 1e160 in magnitude (or zero) as a decimal: exact for
    /// integers below 2^64, otherwise the shortest decimal that reads back as `d`.
    private static func decimal(reading d: Double) -> Decimal {
        if d.rounded(.towardZero) == d {
            if d >= 0, d < 0x1p64 { return Decimal(UInt64(d)) }
            if d < 0, d >= -0x1p63 { return Decimal(Int64(d)) }
        }
        // Swift's description is the shortest text that reads back as the same double.
        return Decimal(string: d.description) ?? Decimal(d)
    }
}
