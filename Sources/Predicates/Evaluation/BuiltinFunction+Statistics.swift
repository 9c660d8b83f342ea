// Aggregate functions (sum, count, min, max, average, median, mode, stddev) and the rest.
import Foundation
import KeyValueCoding

extension BuiltinFunction {
    static func aggregate(_ name: String, _ body: @Sendable @escaping ([Any?]) throws -> Any?) -> BuiltinFunction {
        BuiltinFunction(selector: name, arity: 1) { arguments in try body(try elements(arguments[0], name)) }
    }

    static func numbers(_ values: [Any?], _ name: String) throws -> [Double] {
        try values.compactMap { $0 }.map { try double($0, name) }
    }

    static let statistics: [BuiltinFunction] = [
        aggregate("sum:") { values in
            var total = 0
            var exact = true
            for value in values where value != nil {
                guard let int = try integer(value, "sum:") else { exact = false; break }
                let (result, overflow) = total.addingReportingOverflow(int)
                if overflow { exact = false; break }
                total = result
            }
            if exact { return total }
            return try numbers(values, "sum:").reduce(0, +)
        },
        aggregate("count:") { values in values.count },
        aggregate("min:") { values in try extreme(values, "min:", wantsMaximum: false) },
        aggregate("max:") { values in try extreme(values, "max:", wantsMaximum: true) },
        aggregate("average:") { values in
            let list = try numbers(values, "average:")
            return list.isEmpty ? nil : list.reduce(0, +) / Double(list.count)
        },
        aggregate("median:") { values in
            // NaN first, as every other ordering of numbers (`[Double].sorted()` has no
            // defined order with NaN).
            let list = try numbers(values, "median:").sorted { NumberOrdering.ordered($0, $1) == .orderedAscending }
            guard !list.isEmpty else { return nil }
            let middle = list.count / 2
            return list.count % 2 == 1 ? list[middle] : (list[middle - 1] + list[middle]) / 2
        },
        aggregate("mode:") { values in
            var counts: [(value: Any?, count: Int)] = []
            for value in values {
                if let index = try counts.firstIndex(where: { try ValueEquality.equal($0.value, value, options: []) }) {
                    counts[index].count += 1
                } else {
                    counts.append((value, 1))
                }
            }
            let top = counts.map(\.count).max() ?? 0
            return counts.filter { $0.count == top }.map(\.value)
        },
        aggregate("stddev:") { values in
            let list = try numbers(values, "stddev:")
            guard !list.isEmpty else { return nil }
            let mean = list.reduce(0, +) / Double(list.count)
            let variance = list.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(list.count)
            return variance.squareRoot()
        },
    ]

    private static func extreme(_ values: [Any?], _ name: String, wantsMaximum: Bool) throws -> Any? {
        var best: Any?
        for value in values where value != nil {
            guard let current = best else { best = value; continue }
            let order = try ValueEquality.order(value, current, options: [], operation: name)
            if order == (wantsMaximum ? .orderedDescending : .orderedAscending) { best = value }
        }
        return best
    }

    static let others: [BuiltinFunction] = [
        BuiltinFunction(selector: "uppercase:", arity: 1) { try string($0[0], "uppercase:").uppercased() },
        BuiltinFunction(selector: "lowercase:", arity: 1) { try string($0[0], "lowercase:").lowercased() },
        BuiltinFunction(selector: "length:", arity: 1) { try string($0[0], "length:").utf16.count },
        BuiltinFunction(selector: "now", arity: 0) { _ in Date() },
        BuiltinFunction(selector: "random", arity: 0) { _ in Double.random(in: 0..<1) },
        BuiltinFunction(selector: "random:", arity: 1) { arguments in
            try elements(arguments[0], "random:").randomElement() ?? nil
        },
        BuiltinFunction(selector: "randomn:", arity: 1) { arguments in
            let bound = try requireInteger(arguments[0], "randomn:")
            guard bound > 0 else {
                throw PredicateEvaluationError.invalidFunctionArgument(function: "randomn:", reason: "bound must be positive")
            }
            return Int.random(in: 0..<bound)
        },
        BuiltinFunction(selector: "noindex:", arity: 1) { $0[0] },
        BuiltinFunction(selector: "castObject:toType:", arity: 2) { arguments in
            let type = try string(arguments[1], "castObject:toType:")
            guard ValueCasting.isKnownType(type) else {
                throw PredicateEvaluationError.invalidFunctionArgument(function: "castObject:toType:", reason: "unknown type \(type)")
            }
            let value = ValueEquality.normalize(arguments[0])
            guard let converted = ValueCasting.cast(value, to: type) else {
                guard let value else { return nil }   // CAST(nil, …) is nil
                throw PredicateEvaluationError.invalidFunctionArgument(
                    function: "castObject:toType:", reason: ValueCasting.failure(value, to: type))
            }
            return converted
        },
    ]
}
