import Foundation
import KeyValueCoding
import Testing
import TestSupport
@testable import Predicates

/// Every way of comparing two values gives the documented answer (``OrderModel``), for every
/// operator and kind of value: the three predicate paths, `@min`/`@max`, and sorting.
///
/// The predicate paths are:
/// - the compiled key-path reading path (`ComparisonCompiler` → `ReadingComparison`): a key path
///   against a constant (read from a typed stored property and from a dictionary), and a key
///   path against another key path;
/// - the general expression path (`ExpressionCompiler` → `ComparisonCompiler.specialized` or
///   `ComparisonEvaluator`): a variable against a constant, and against another variable;
/// - the direct evaluator (`ComparisonEvaluator.test`).
///
/// Every failure names the operator, options and values (`withEvery` labels).
@Suite("Comparisons agree across predicates, @min/@max and sorting")
struct ComparisonAgreementTests {
    static let orderingOperators: [ComparisonOperator] = [
        .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .equalTo, .notEqualTo,
    ]
    static let stringOptions: [ComparisonOptions] = [[], .caseInsensitive, .diacriticInsensitive,
                                                      [.caseInsensitive, .diacriticInsensitive]]

    /// The options to try for a pair: all four for two strings, none otherwise.
    private static func options(for lhs: OrderSample, _ rhs: OrderSample) -> [ComparisonOptions] {
        lhs.kind == .string && rhs.kind == .string ? stringOptions : [[]]
    }

    private static func describe(_ options: ComparisonOptions) -> String {
        options.isEmpty ? "[]" : "[\(options.contains(.caseInsensitive) ? "c" : "")\(options.contains(.diacriticInsensitive) ? "d" : "")]"
    }

    /// A row holding `v` (and `w`), without the keys whose value is nil.
    private static func row(_ v: Any?, _ w: Any? = nil) -> [String: Any] {
        var row: [String: Any] = [:]
        if let v { row["v"] = v }
        if let w { row["w"] = w }
        return row
    }

    /// `lhs op rhs` through every predicate path, by path name.
    static func outcomes(_ op: ComparisonOperator, _ options: ComparisonOptions,
                         _ lhs: Any?, _ rhs: Any?, rightConstant: KeyValueExpression) -> [(String, ComparisonOutcome)] {
        func predicate(_ left: KeyValueExpression, _ right: KeyValueExpression) -> KeyValuePredicate {
            KeyValuePredicate(left, op, right, options: options)
        }
        let variables: [String: Any?] = ["a": lhs, "b": rhs]
        let typedRow = makeTypedRow(lhs)
        return [
            ("typed property vs constant (reading path)", ComparisonOutcome {
                try predicate(.keyPath("v"), rightConstant).evaluate(with: typedRow)
            }),
            ("key path vs constant (reading path)", ComparisonOutcome {
                try predicate(.keyPath("v"), rightConstant).evaluate(with: row(lhs))
            }),
            ("key path vs key path (reading path)", ComparisonOutcome {
                try predicate(.keyPath("v"), .keyPath("w")).evaluate(with: row(lhs, rhs))
            }),
            ("variable vs constant (expression path)", ComparisonOutcome {
                try predicate(.variable("a"), rightConstant).evaluate(with: nil, substitutionVariables: variables)
            }),
            ("variable vs variable (expression path)", ComparisonOutcome {
                try predicate(.variable("a"), .variable("b")).evaluate(with: nil, substitutionVariables: variables)
            }),
            ("direct evaluator", ComparisonOutcome {
                try ComparisonEvaluator.test(op, options: options, ValueEquality.normalize(lhs), ValueEquality.normalize(rhs))
            }),
        ]
    }

    private static func checkPaths(_ op: ComparisonOperator, _ options: ComparisonOptions, _ lhs: Any?,
                                   _ rhs: Any?, rightConstant: KeyValueExpression, expected: ComparisonOutcome,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        for (path, outcome) in outcomes(op, options, lhs, rhs, rightConstant: rightConstant) {
            checkEqual(outcome, expected, path, sourceLocation: sourceLocation)
        }
    }

    // MARK: Predicates

    @Test func orderingOperatorsAndEquality() {
        withEvery("left", in: OrderSample.all) { lhs in
            withEvery("right", in: OrderSample.all) { rhs in
                withEvery("options", in: Self.options(for: lhs, rhs), describedBy: Self.describe) { options in
                    withEvery("operator", in: Self.orderingOperators, describedBy: \.rawValue) { op in
                        Self.checkPaths(op, options, lhs.value, rhs.value,
                                        rightConstant: .constant(KeyValueConstant(rhs.value)),
                                        expected: OrderModel.outcome(op, lhs, rhs, options))
                    }
                }
            }
        }
    }

    @Test func between() {
        let bounds = OrderSample.representatives
        withEvery("value", in: OrderSample.all) { value in
            withEvery("low", in: bounds) { low in
                withEvery("high", in: bounds.filter { $0.kind == low.kind }) { high in
                    withEvery("options", in: Self.options(for: value, low), describedBy: Self.describe) { options in
                        Self.checkPaths(.between, options, value.value, [low.value, high.value],
                                        rightConstant: .aggregate([.constant(KeyValueConstant(low.value)),
                                                                   .constant(KeyValueConstant(high.value))]),
                                        expected: OrderModel.between(value, low, high, options))
                    }
                }
            }
        }
    }

    @Test func membership() {
        let elements = [OrderSample.null] + OrderSample.representatives
        withEvery("value", in: OrderSample.all) { value in
            withEvery("first", in: elements) { first in
                withEvery("second", in: elements) { second in
                    withEvery("options", in: Self.options(for: value, first), describedBy: Self.describe) { options in
                        Self.checkPaths(.in, options, value.value, [first.value, second.value],
                                        rightConstant: .aggregate([.constant(KeyValueConstant(first.value)),
                                                                   .constant(KeyValueConstant(second.value))]),
                                        expected: OrderModel.isIn(value, first, second, options))
                    }
                }
            }
        }
    }

    /// Constants (predicate trees) are equal exactly when the order says so, and equal
    /// constants hash alike, across numeric types.
    @Test func constantsEqualAndHashAsTheOrderSays() {
        let samples = OrderSample.all
        withEvery("left", in: samples) { lhs in
            withEvery("right", in: samples) { rhs in
                let (a, b) = (KeyValueConstant(lhs.value), KeyValueConstant(rhs.value))
                // Strings are equal as constants only when canonically equal (no options).
                checkEqual(a == b, OrderModel.equal(lhs, rhs, []), "==")
                if a == b { checkEqual(a.hashValue, b.hashValue, "hash of equal constants") }
            }
        }
    }

    /// A `Double` and the `Decimal` it reads as (its exact integer, or else the shortest decimal
    /// that reads back as it) are equal and hash alike, over many magnitudes (a hash of
    /// `Decimal`'s `doubleValue` would not be).
    @Test func doublesAndTheirDecimalsHashAlike() throws {
        var generator = SplitMix(seed: 0x5EED)
        for _ in 0..<2_000 {
            let exponent = Double(Int(generator.next() % 61) - 30)
            let double = (Double(generator.next() % 2_000_001) / 1_000_000 - 1) * pow(10, exponent)
            // An integral double is its exact integer; any other the shortest decimal.
            let integral = double.rounded(.towardZero) == double
            let decimal = integral && double >= 0 && double < 0x1p64 ? Decimal(UInt64(double))
                : integral && double < 0 && double >= -0x1p63 ? Decimal(Int64(double))
                : try #require(Decimal(string: double.description))
            let (a, b) = (KeyValueConstant(double), KeyValueConstant(decimal))
            #expect(a == b, "\(double) and Decimal \(decimal)")
            #expect(a.hashValue == b.hashValue, "\(double) and Decimal \(decimal)")
        }
    }

    // MARK: @min and @max

    /// The sample `@min`/`@max` returned, by the value's type and text.
    private static func sample(_ value: Any?, in samples: [OrderSample]) -> OrderSample? {
        let identity = OrderSample.identity(of: value)
        return samples.first { OrderSample.identity(of: $0.value) == identity }
    }

    @Test func samplesAreDistinguishable() throws {
        for kind in [OrderSample.numbers, OrderSample.strings, OrderSample.dates] {
            let identities = kind.map { OrderSample.identity(of: $0.value) }
            // The decomposed "á" is canonically equal to the composed one; both share a place.
            #expect(Set(identities).count >= identities.count - 1, "\(identities)")
        }
    }

    /// `@min`/`@max` of every ordering of every pair and of chosen triples give a value at the
    /// smallest / largest place, and the first such value in the collection.
    @Test func minimumAndMaximumDoNotDependOnOrder() {
        let kinds: [(String, [OrderSample])] = [("numbers", OrderSample.numbers), ("strings", OrderSample.strings),
                                                ("dates", OrderSample.dates)]
        withEvery("kind", in: kinds, describedBy: \.0) { _, samples in
            var collections: [[OrderSample]] = []
            for a in samples { for b in samples { collections.append([a, b]) } }
            let few = samples.count > 12 ? samples.filter { $0.places[0] % 20 == 0 } : samples
            for a in few { for b in few { for c in few { collections.append([a, b, c]) } } }
            withEvery("elements", in: collections, describedBy: { $0.map(\.label).joined(separator: ", ") }) { elements in
                let values: [Any] = elements.compactMap(\.value)
                let lowest = elements.map { $0.place([]) }.min()!
                let highest = elements.map { $0.place([]) }.max()!
                let minimum = try KeyValue.value(forKeyPath: "@min.self", of: values)
                let maximum = try KeyValue.value(forKeyPath: "@max.self", of: values)
                checkEqual(Self.sample(minimum, in: elements)?.label,
                           elements.first { $0.place([]) == lowest }?.label, "@min")
                checkEqual(Self.sample(maximum, in: elements)?.label,
                           elements.first { $0.place([]) == highest }?.label, "@max")
            }
        }
    }

    @Test func theIssueExampleNaNInTheMiddle() throws {
        for values in [[1.0, .nan, 3.0], [3.0, .nan, 1.0], [.nan, 3.0, 1.0], [1.0, 3.0, .nan]] {
            let maximum = try #require(try KeyValue.value(forKeyPath: "@max.self", of: values) as? Double)
            let minimum = try #require(try KeyValue.value(forKeyPath: "@min.self", of: values) as? Double)
            #expect(maximum == 3, "\(values)")
            #expect(minimum.isNaN, "\(values)")
        }
    }

    /// The `min:`, `max:` and `median:` functions order NaN first too, whatever the order of
    /// their arguments.
    @Test func aggregateFunctionsOrderNaNFirst() {
        let orders: [[String]] = [["1", "NaN", "3"], ["3", "NaN", "1"], ["NaN", "3", "1"], ["1", "3", "NaN"]]
        withEvery("arguments", in: orders, describedBy: { $0.joined(separator: ", ") }) { order in
            let list = "{" + order.map { $0 == "NaN" ? "CAST('nan', 'NSNumber')" : $0 }.joined(separator: ", ") + "}"
            let maximum = try KeyValueExpression(format: "max(\(list))").expressionValue(with: nil)
            let minimum = try KeyValueExpression(format: "min(\(list))").expressionValue(with: nil)
            let median = try KeyValueExpression(format: "median(\(list))").expressionValue(with: nil)
            checkEqual(maximum as? Int, 3, "max")
            check((minimum as? Double)?.isNaN == true, "min is \(String(describing: minimum))")
            checkEqual(median as? Double, 1, "median")
        }
    }

    // MARK: Sorting

    private static func sortedLabels(_ samples: [OrderSample], _ descriptor: KeyValueSortDescriptor) throws -> [Int] {
        let rows: [[String: Any]] = samples.enumerated().map { index, sample in
            var row = Self.row(sample.value)
            row["i"] = index
            return row
        }
        return try rows.sorted(using: [descriptor]).map { $0["i"] as! Int }
    }

    /// Sorting every ordering of every pair, and whole columns in several orders, puts the
    /// values in the order of their places; `compare(_:to:)` gives the model's order.
    @Test func sortingFollowsTheSameOrder() {
        let kinds: [(String, [OrderSample], KeyValueSortDescriptor.Comparison, ComparisonOptions)] = [
            ("numbers", [OrderSample.null] + OrderSample.numbers, .compare, []),
            ("strings", [OrderSample.null] + OrderSample.strings, .compare, []),
            ("strings", [OrderSample.null] + OrderSample.strings, .caseInsensitiveCompare, .caseInsensitive),
            ("dates", [OrderSample.null] + OrderSample.dates, .compare, []),
        ]
        withEvery("column", in: kinds, describedBy: { "\($0.0) by \($0.2)" }) { _, samples, comparison, options in
            let place = { (sample: OrderSample) in sample.kind == .null ? -1 : sample.place(options) }
            withEvery("ascending", in: [true, false]) { ascending in
                let descriptor = KeyValueSortDescriptor(key: "v", ascending: ascending, comparison: comparison)
                let columns = [samples, samples.reversed(), samples.enumerated().map { samples[($0.offset * 7) % samples.count] }]
                withEvery("column order", in: columns.indices) { index in
                    let column = columns[index]
                    let places = try Self.sortedLabels(column, descriptor).map { place(column[$0]) }
                    checkEqual(places, ascending ? places.sorted() : places.sorted(by: >), "sorted places")
                }
                withEvery("left", in: samples) { lhs in
                    withEvery("right", in: samples) { rhs in
                        let expected = NumberOrdering.ordered(place(lhs), place(rhs))
                        let actual = try descriptor.compare(Self.row(lhs.value), to: Self.row(rhs.value))
                        checkEqual(actual, ascending ? expected : Self.reversed(expected), "compare(_:to:)")
                        let pair = try Self.sortedLabels([lhs, rhs], descriptor).map { place([lhs, rhs][$0]) }
                        checkEqual(pair, ascending ? pair.sorted() : pair.sorted(by: >), "sorted pair")
                    }
                }
            }
        }
    }

    private static func reversed(_ order: ComparisonResult) -> ComparisonResult {
        order == .orderedAscending ? .orderedDescending : (order == .orderedDescending ? .orderedAscending : .orderedSame)
    }
}

/// A small deterministic generator, so that a failure can be reproduced.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// An object whose `v` is a stored property of the value's own type (`Double`, `Decimal`,
/// `UInt64`…), so the reading path reads it through a typed stored-property reader rather than
/// from an `Any`.
final class TypedRow<Value>: KeyValueCodable {
    var v: Value
    init(_ v: Value) { self.v = v }
}

/// A ``TypedRow`` holding `value` with its dynamic type, or an `Optional<Int>` row for `nil`.
func makeTypedRow(_ value: Any?) -> AnyObject {
    guard let value else { return TypedRow<Int?>(nil) }
    func open<T>(_ typed: T) -> AnyObject { TypedRow<T>(typed) }
    return _openExistential(value, do: open)
}
