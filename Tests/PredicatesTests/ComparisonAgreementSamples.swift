import Foundation
@testable import Predicates

/// One value of the comparison table, with its place in the documented order.
///
/// The places are written by hand from the rules (Docs/Predicates.md, "Sorting"; Docs/Porting.md):
/// NaN equals NaN and comes before every number; integers, floating-point numbers, `Decimal`s
/// and Booleans compare by numeric value, integers exactly; a `Double` against a `Decimal` is
/// the shortest decimal that reads back as it; strings by Unicode order after folding for
/// `[c]`/`[d]`; dates by time, NaN first. Values of different kinds are never equal and have
/// no order (a comparison throws); `nil` is equal only to `nil` and has no order.
struct OrderSample: CustomStringConvertible {
    enum Kind: String { case null, number, string, date }

    let label: String
    let value: Any?
    let kind: Kind
    /// The place in the order for the options `[]`, `[c]`, `[d]`, `[cd]` (the same four for
    /// numbers and dates): equal places mean equal values.
    let places: [Int]

    var description: String { label }

    init(_ label: String, _ value: Any?, _ kind: Kind, _ places: [Int]) {
        self.label = label
        self.value = value
        self.kind = kind
        self.places = places
    }

    /// A number or a date at `place` whatever the options.
    init(_ label: String, _ value: Any, _ kind: Kind, at place: Int) {
        self.init(label, value, kind, Array(repeating: place, count: 4))
    }

    /// The place under `options`.
    func place(_ options: ComparisonOptions) -> Int {
        places[(options.contains(.caseInsensitive) ? 1 : 0) + (options.contains(.diacriticInsensitive) ? 2 : 0)]
    }

    /// A key naming the value exactly (its type and its reflected text), to find which sample
    /// `@min`/`@max` returned.
    static func identity(of value: Any?) -> String {
        guard let value else { return "nil" }
        // A date's description traps for a NaN interval: name it by its interval.
        if let date = value as? Date { return "Date:\(date.timeIntervalSinceReferenceDate)" }
        return "\(type(of: value)):\(String(reflecting: value))"
    }

    // MARK: The table

    static var null: OrderSample { OrderSample("nil", nil, .null, [0, 0, 0, 0]) }

    /// Numbers in ascending places; samples sharing a place are equal.
    static var numbers: [OrderSample] {
        func n(_ label: String, _ value: Any, _ place: Int) -> OrderSample {
            OrderSample(label, value, .number, at: place)
        }
        return [
            n("Double.nan", Double.nan, 0), n("Float.nan", Float.nan, 0), n("Decimal.nan", Decimal.nan, 0),
            n("-infinity", -Double.infinity, 10), n("Float -infinity", -Float.infinity, 10),
            n("Int64.min", Int64.min, 20), n("-2^63 as Double", -0x1p63, 20),
            n("Int64.min as Decimal", Decimal(Int64.min), 20),
            n("Int64.min + 1", Int64.min + 1, 30),   // a Double rounds it to -2^63
            n("-1.5", -1.5, 40), n("Float -1.5", Float(-1.5), 40), n("Decimal -1.5", Decimal(sign: .minus, exponent: -1, significand: 15), 40),
            n("Int -1", -1, 50), n("-1.0", -1.0, 50), n("Decimal -1", Decimal(-1), 50), n("Int8 -1", Int8(-1), 50),
            n("false", false, 60), n("Int 0", 0, 60), n("0.0", 0.0, 60), n("-0.0", -0.0, 60),
            n("UInt64 0", UInt64(0), 60), n("Decimal 0", Decimal(0), 60),
            n("0.1", 0.1, 70), n("Decimal 0.1", Decimal(sign: .plus, exponent: -1, significand: 1), 70),
            // The exact binary value of 0.1 is above the decimal 0.1 that the Double reads as.
            n("Decimal 0.1000…0555", Decimal(string: "0.1000000000000000055511151231257827")!, 75),
            n("Float 0.1", Float(0.1), 80),   // 0.100000001490116…
            n("0.5", 0.5, 90), n("Float 0.5", Float(0.5), 90), n("Decimal 0.5", Decimal(sign: .plus, exponent: -1, significand: 5), 90),
            n("true", true, 100), n("Int 1", 1, 100), n("1.0", 1.0, 100), n("UInt64 1", UInt64(1), 100),
            n("Decimal 1", Decimal(1), 100), n("UInt8 1", UInt8(1), 100),
            n("2^53", Int64(1) << 53, 110), n("2^53 as Double", 0x1p53, 110),
            n("2^53 + 1", (Int64(1) << 53) + 1, 120), n("2^53 + 1 as Decimal", Decimal((Int64(1) << 53) + 1), 120),
            n("Int64.max", Int64.max, 130), n("Int64.max as UInt64", UInt64(Int64.max), 130),
            n("Int64.max as Decimal", Decimal(Int64.max), 130),
            n("2^63 as Double", 0x1p63, 140), n("2^63 as UInt64", UInt64(1) << 63, 140),
            n("2^63 as Decimal", Decimal(UInt64(1) << 63), 140),
            n("UInt64.max", UInt64.max, 150), n("UInt64.max as Decimal", Decimal(UInt64.max), 150),
            n("2^64 as Double", 0x1p64, 160),
            n("1e300", 1e300, 170),
            n("+infinity", Double.infinity, 180), n("Float +infinity", Float.infinity, 180),
        ]
    }

    /// Strings, with places for `[]`, `[c]`, `[d]`, `[cd]`.
    static var strings: [OrderSample] {
        func s(_ value: String, _ places: [Int]) -> OrderSample {
            OrderSample("\"\(value.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined())\"",
                        value, .string, places)
        }
        return [
            s("", [0, 0, 0, 0]),
            s("A", [1, 1, 1, 1]),
            s("B", [2, 3, 2, 3]),
            s("a", [3, 1, 3, 1]),
            s("ab", [4, 2, 4, 2]),
            s("b", [5, 3, 5, 3]),
            s("\u{C1}", [6, 4, 1, 1]),          // Á
            s("\u{E1}", [7, 4, 3, 1]),          // á
            s("a\u{301}", [7, 4, 3, 1]),        // á, decomposed: canonically equal to the line above
        ]
    }

    /// Dates in ascending places.
    static var dates: [OrderSample] {
        [
            OrderSample("NaN date", Date(timeIntervalSinceReferenceDate: .nan), .date, at: 0),
            OrderSample("distantPast", Date.distantPast, .date, at: 1),
            OrderSample("reference date", Date(timeIntervalSinceReferenceDate: 0), .date, at: 2),
            OrderSample("reference date + 0.5 s", Date(timeIntervalSinceReferenceDate: 0.5), .date, at: 3),
            OrderSample("distantFuture", Date.distantFuture, .date, at: 4),
        ]
    }

    static var all: [OrderSample] { [null] + numbers + strings + dates }

    /// A few samples of each kind, for the operators that take two right-hand values.
    static var representatives: [OrderSample] {
        let numberLabels: Set = ["Double.nan", "-infinity", "Int 0", "Decimal 0.1", "0.1", "true",
                                 "Int64.max", "2^63 as Double", "+infinity"]
        return numbers.filter { numberLabels.contains($0.label) }
            + strings.filter { ["\"\"", "\"a\"", "\"B\"", "\"\\u{e1}\""].contains($0.label) }
            + dates.filter { ["NaN date", "reference date"].contains($0.label) }
    }
}

/// What a comparison gave: a truth value, or an error.
enum ComparisonOutcome: Equatable, CustomStringConvertible {
    case holds(Bool)
    case incomparable
    case failed(String)

    init(_ body: () throws -> Bool) {
        do {
            self = .holds(try body())
        } catch PredicateEvaluationError.incomparableValues {
            self = .incomparable
        } catch {
            self = .failed(String(describing: error))
        }
    }

    var description: String {
        switch self {
        case .holds(let value): return String(value)
        case .incomparable: return "throws incomparableValues"
        case .failed(let text): return "throws \(text)"
        }
    }
}

/// The documented rule: what `lhs op rhs` gives.
enum OrderModel {
    /// The order of two samples, `nil` when either is `nil`, or `.incomparable` for two kinds.
    static func order(_ lhs: OrderSample, _ rhs: OrderSample,
                      _ options: ComparisonOptions) -> Result<ComparisonResult?, ModelError> {
        if lhs.kind == .null || rhs.kind == .null { return .success(nil) }
        guard lhs.kind == rhs.kind else { return .failure(.incomparable) }
        let (a, b) = (lhs.place(options), rhs.place(options))
        return .success(a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending))
    }

    enum ModelError: Error { case incomparable }

    static func equal(_ lhs: OrderSample, _ rhs: OrderSample, _ options: ComparisonOptions) -> Bool {
        if lhs.kind == .null || rhs.kind == .null { return lhs.kind == rhs.kind }
        return lhs.kind == rhs.kind && lhs.place(options) == rhs.place(options)
    }

    static func outcome(_ op: ComparisonOperator, _ lhs: OrderSample, _ rhs: OrderSample,
                        _ options: ComparisonOptions) -> ComparisonOutcome {
        switch op {
        case .equalTo: return .holds(equal(lhs, rhs, options))
        case .notEqualTo: return .holds(!equal(lhs, rhs, options))
        default:
            switch order(lhs, rhs, options) {
            case .failure: return .incomparable
            case .success(nil): return .holds(false)
            case .success(let order?):
                switch op {
                case .lessThan: return .holds(order == .orderedAscending)
                case .lessThanOrEqualTo: return .holds(order != .orderedDescending)
                case .greaterThan: return .holds(order == .orderedDescending)
                default: return .holds(order != .orderedAscending)
                }
            }
        }
    }

    /// `value BETWEEN {low, high}` for bounds of one kind.
    static func between(_ value: OrderSample, _ low: OrderSample, _ high: OrderSample,
                        _ options: ComparisonOptions) -> ComparisonOutcome {
        let above = outcome(.greaterThanOrEqualTo, value, low, options)
        let below = outcome(.lessThanOrEqualTo, value, high, options)
        if above == .incomparable || below == .incomparable { return .incomparable }
        return .holds(above == .holds(true) && below == .holds(true))
    }

    /// `value IN {first, second}`.
    static func isIn(_ value: OrderSample, _ first: OrderSample, _ second: OrderSample,
                     _ options: ComparisonOptions) -> ComparisonOutcome {
        .holds(equal(value, first, options) || equal(value, second, options))
    }
}
