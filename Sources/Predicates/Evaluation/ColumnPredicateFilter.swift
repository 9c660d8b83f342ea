// Predicates compiled against a store's rows by column, run a part at a time: each part
// narrows the positions the previous parts left, in one loop over a column.
import Foundation
import KeyValueCoding

extension KeyValuePredicate {
    /// The positions `0..<count` of the rows that satisfy the predicate, in ascending order:
    /// ``compiledColumnTest(column:fallback:)`` run a part at a time rather than a row at a
    /// time. An AND's second part reads only the rows its first part kept, an OR's second part
    /// only the rows its first part refused, so every part reads exactly the rows the general
    /// evaluator's short circuits give it (in another order: when parts throw for several
    /// rows, which error is thrown may differ); a comparison of a column with a constant runs
    /// as one loop over the column.
    ///
    /// - Parameters:
    ///   - count: How many rows the columns hold.
    ///   - column: The column of a key, or `nil` when the key is not one.
    ///   - fallback: Builds the test of a subpredicate that reads more than columns.
    /// - Returns: The positions of the matching rows, ascending.
    /// - Throws: What compiling or evaluating the predicate throws.
    /// - Complexity: O(size of the predicate) to compile, then O(rows tested) per part.
    package func columnFilteredPositions(count: Int, column: @escaping (String) -> KeyValueReadingColumn?,
                                         fallback: @escaping (KeyValuePredicate) throws -> RowPositionTest) throws -> [Int] {
        let compiler = ColumnPredicateCompiler(column: column, fallback: fallback)
        return try compiler.filter(self)(.all(count))
    }
}

/// The rows a part of a predicate is tested on: every row, or some (ascending).
enum RowCandidates {
    case all(Int)
    case some([Int])

    var positions: [Int] {
        switch self {
        case .all(let count): return Array(0..<count)
        case .some(let positions): return positions
        }
    }

    var isEmpty: Bool {
        switch self {
        case .all(let count): return count == 0
        case .some(let positions): return positions.isEmpty
        }
    }

    /// The candidates that `keep` accepts, in order.
    @inline(__always)
    func kept(_ keep: (Int) throws -> Bool) rethrows -> [Int] {
        var kept: [Int] = []
        switch self {
        case .all(let count):
            for position in 0..<count where try keep(position) { kept.append(position) }
        case .some(let positions):
            kept.reserveCapacity(positions.count)
            for position in positions where try keep(position) { kept.append(position) }
        }
        return kept
    }

    /// The candidates not in `removed` (ascending, a subset of the candidates).
    func removing(_ removed: [Int]) -> [Int] {
        var next = removed.startIndex
        return kept { position in
            if next < removed.endIndex && removed[next] == position {
                next += 1
                return false
            }
            return true
        }
    }
}

/// Narrows candidates to the rows that satisfy a part of a predicate.
typealias RowFilter = (RowCandidates) throws -> [Int]

extension ColumnPredicateCompiler {
    func filter(_ predicate: KeyValuePredicate) throws -> RowFilter {
        switch predicate.kind {
        case .constant(let value):
            return { candidates in value ? candidates.positions : [] }
        case .comparison(let comparison):
            if let filter = try filter(comparison) { return filter }
            return Self.filter(try fallback(predicate))
        case .and(let list):
            let filters = try list.map(filter)
            return { candidates in
                var current = candidates
                for filter in filters {
                    if current.isEmpty { return [] }
                    current = .some(try filter(current))
                }
                return current.positions
            }
        case .or(let list):
            let filters = try list.map(filter)
            return { candidates in
                var matched: [Int] = []
                var rest = candidates
                for filter in filters where !rest.isEmpty {
                    let hits = try filter(rest)
                    guard !hits.isEmpty else { continue }
                    matched = Self.merged(matched, hits)
                    rest = .some(rest.removing(hits))
                }
                return matched
            }
        case .not(let inner):
            let filter = try filter(inner)
            return { candidates in candidates.removing(try filter(candidates)) }
        case .block:
            return Self.filter(try fallback(predicate))
        }
    }

    /// A row-at-a-time test as a filter.
    private static func filter(_ test: @escaping RowPositionTest) -> RowFilter {
        { candidates in try candidates.kept(test) }
    }

    /// A comparison on columns as one loop, the commonest slots (an integer against an integer
    /// constant, a string against a string operator's pattern) tested in place as
    /// ``ReadingComparison`` tests them; `nil` when it is not on columns.
    private func filter(_ comparison: KeyValueComparison) throws -> RowFilter? {
        guard let test = try compile(comparison) else { return nil }
        guard comparison.modifier == .direct, let left = columnOf(comparison.leftExpression),
              let constant = ExpressionCompiler.comparisonConstant(of: comparison.rightExpression) else {
            return Self.filter(test)
        }
        let op = comparison.comparisonOperator
        switch op {
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .equalTo, .notEqualTo:
            guard let constant, case .integer(let number)? = KeyValueNumber(constant) else { return Self.filter(test) }
            return { candidates in
                // Read through the buffer: a slot is matched in place, not copied.
                try left.withUnsafeBufferPointer { slots in
                    try candidates.kept { position in
                        if case .number(.integer(let value)) = slots[position] {
                            return ComparisonEvaluator.holds(op, NumberOrdering.ordered(value, number))
                        }
                        return try test(position)
                    }
                }
            }
        case .beginsWith, .endsWith, .like, .matches, .contains:
            guard let pattern = constant as? String else { return Self.filter(test) }
            let matcher = try StringMatcher(op, pattern: pattern, options: comparison.options)
            return { candidates in
                try left.withUnsafeBufferPointer { slots in
                    try candidates.kept { position in
                        if case .string(let subject) = slots[position] { return try matcher.matches(subject) }
                        return try test(position)
                    }
                }
            }
        case .in, .between:
            return Self.filter(test)
        }
    }

    /// Two ascending, disjoint lists as one ascending list.
    private static func merged(_ a: [Int], _ b: [Int]) -> [Int] {
        if a.isEmpty { return b }
        var result: [Int] = []
        result.reserveCapacity(a.count + b.count)
        var (i, j) = (0, 0)
        while i < a.count && j < b.count {
            if a[i] < b[j] { result.append(a[i]); i += 1 } else { result.append(b[j]); j += 1 }
        }
        result.append(contentsOf: a[i...])
        result.append(contentsOf: b[j...])
        return result
    }
}
