import Foundation

/// A running sum that keeps integers exact and switches to `Double` or `Decimal` as needed.
///
/// `package` only because ``KeyValueCollection`` names it in a requirement (its members stay
/// internal to key-value coding).
package struct NumericAccumulator {
    private enum Total {
        case integer(Int)
        case floating(Double)
        case decimal(Decimal)
    }
    private var total = Total.integer(0)

    mutating func add(_ number: KeyValueNumber) {
        switch (total, number) {
        case (.decimal(let sum), _):
            guard let value = Self.decimal(number) else {
                total = .floating(NSDecimalNumber(decimal: sum).doubleValue + number.doubleValue)
                return
            }
            total = .decimal(sum + value)
        case (.floating(let sum), _):
            total = .floating(sum + number.doubleValue)
        case (.integer(let sum), .decimal(let value)):
            total = .decimal(Decimal(sum) + value)
        case (.integer(let sum), _):
            guard let value = Self.integer(number) else {
                total = .floating(Double(sum) + number.doubleValue)
                return
            }
            let (result, overflow) = sum.addingReportingOverflow(value)
            total = overflow ? .floating(Double(sum) + Double(value)) : .integer(result)
        }
    }

    /// The number as an `Int` when it is an integer (or a `Bool`) that fits.
    private static func integer(_ number: KeyValueNumber) -> Int? {
        switch number {
        case .integer(let value): return Int(exactly: value)
        case .unsigned(let value): return Int(exactly: value)
        case .boolean(let value): return value ? 1 : 0
        case .floating, .decimal: return nil
        }
    }

    mutating func add(_ value: Double) {
        add(.floating(value))
    }

    /// The number as a `Decimal`, or nil when it has none (infinite, NaN, or beyond
    /// `Decimal`'s range).
    private static func decimal(_ number: KeyValueNumber) -> Decimal? {
        Decimal(bridging: number)
    }

    /// The sum: an `Int` while every value was an integer, a `Decimal` once one was a
    /// `Decimal`, otherwise a `Double`.
    var value: Any {
        switch total {
        case .integer(let sum): return sum
        case .floating(let sum): return sum
        case .decimal(let sum): return sum
        }
    }

    /// The sum divided by `count`, as a `Double` (a `Decimal` when the sum is one).
    func average(count: Int) -> Any {
        guard count > 0 else { return 0.0 }
        switch total {
        case .integer(let sum): return Double(sum) / Double(count)
        case .floating(let sum): return sum / Double(count)
        case .decimal(let sum): return sum / Decimal(count)
        }
    }
}

extension CollectionOperator {
    /// `@sum`: `nil` values count as 0; non-numbers are an error.
    static func sum(_ collection: any KeyValueCollection, _ right: Substring,
                    _ fullPath: String) throws -> Any {
        var accumulator = NumericAccumulator()
        try accumulate(collection, right, fullPath, operatorName: "@sum", into: &accumulator)
        return accumulator.value
    }

    /// `@avg`: the sum (with `nil` as 0) divided by the number of elements; 0 when empty.
    static func average(_ collection: any KeyValueCollection, _ right: Substring,
                        _ fullPath: String) throws -> Any {
        var accumulator = NumericAccumulator()
        try accumulate(collection, right, fullPath, operatorName: "@avg", into: &accumulator)
        return accumulator.average(count: collection.keyValueCount)
    }

    private static func accumulate(_ collection: any KeyValueCollection, _ right: Substring,
                                   _ fullPath: String, operatorName: String,
                                   into accumulator: inout NumericAccumulator) throws {
        if !right.contains("."), right.first != "@",
           collection.keyValueSumStoredNumbers(forKey: String(right), into: &accumulator) {
            return
        }
        for element in collection.keyValueElements {
            guard let value = try KeyValue.evaluate(right, fullPath: fullPath, from: element),
                  !isNSNull(value) else { continue }
            guard let number = KeyValueNumber(value) else {
                throw KeyValueCodingError.invalidOperand(
                    operator: operatorName,
                    reason: "the value \(value) of type \(typeName(type(of: value))) at '\(right)' is not a number")
            }
            accumulator.add(number)
        }
    }

    /// `@min` / `@max`: compares values with ``compareValues(_:_:)`` (numbers numerically
    /// across types with NaN first, strings and dates by their order); `nil` values are
    /// ignored; `nil` for an empty collection.
    ///
    /// The order is a strict weak ordering, so the extreme value does not depend on the order
    /// of the elements; among elements that compare equal (`1` and `1.0`), the first is kept.
    static func extreme(_ collection: any KeyValueCollection, _ right: Substring, _ fullPath: String,
                        wantMaximum: Bool) throws -> Any? {
        var best: Any?
        let name = wantMaximum ? "@max" : "@min"
        for element in collection.keyValueElements {
            guard let value = try KeyValue.evaluate(right, fullPath: fullPath, from: element),
                  !isNSNull(value) else { continue }
            guard let current = best else {
                best = value
                continue
            }
            guard let order = compareValues(value, current) else {
                throw KeyValueCodingError.invalidOperand(
                    operator: name,
                    reason: "cannot compare \(typeName(type(of: value))) with \(typeName(type(of: current)))")
            }
            if wantMaximum ? order == .orderedDescending : order == .orderedAscending {
                best = value
            }
        }
        return best
    }
}
