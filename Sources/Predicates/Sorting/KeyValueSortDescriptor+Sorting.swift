// Sorting sequences with sort descriptors: keys read once per object, then a stable index sort.
import Foundation

/// One descriptor's keys for every element, stored by kind so that comparisons are cheap.
struct SortColumn {
    enum Storage {
        /// Integers, or ranks of strings compared with `compare`/`caseInsensitiveCompare`.
        case integers([Int])
        case general([SortKey])
    }

    let storage: Storage
    let ascending: Bool
    let comparison: KeyValueSortDescriptor.Comparison

    static func reader(for key: String?) -> (Any?) throws -> Any? {
        guard let key else { return { ValueEquality.normalize($0) } }
        let read = ExpressionCompiler.keyPathReader(key, base: nil)
        return { object in try read(object, nil) }
    }

    init<S: Sequence>(_ descriptor: KeyValueSortDescriptor, elements: S, count: Int) throws {
        ascending = descriptor.ascending
        comparison = descriptor.comparison
        let reader = Self.reader(for: descriptor.key)
        var keys: [SortKey] = []
        keys.reserveCapacity(count)
        var allIntegers = true
        var allStrings = true
        for element in elements {
            let key = SortKey(try reader(ValueEquality.box(element)), descriptor.comparison)
            switch key {
            case .integer: allStrings = false
            case .string: allIntegers = false
            default: allIntegers = false; allStrings = false
            }
            keys.append(key)
        }
        let plain: Bool
        switch descriptor.comparison {
        case .compare, .caseInsensitiveCompare: plain = true
        default: plain = false
        }
        if allIntegers, !keys.isEmpty {
            storage = .integers(keys.map { if case .integer(let v) = $0 { return v } else { return 0 } })
        } else if allStrings, plain, !keys.isEmpty {
            storage = .integers(Self.ranks(of: keys.map { if case .string(let v) = $0 { return v } else { return "" } }))
        } else {
            storage = .general(keys)
        }
    }

    /// Each string's rank among the distinct strings (equal strings share a rank), so that
    /// the sort compares integers instead of strings.
    static func ranks(of strings: [String]) -> [Int] {
        var ids: [String: Int] = [:]
        var distinct: [String] = []
        var idOfElement: [Int] = []
        idOfElement.reserveCapacity(strings.count)
        for string in strings {
            if let id = ids[string] {
                idOfElement.append(id)
            } else {
                ids[string] = distinct.count
                idOfElement.append(distinct.count)
                distinct.append(string)
            }
        }
        let order = distinct.indices.sorted { distinct[$0] < distinct[$1] }
        var rankOfID = [Int](repeating: 0, count: distinct.count)
        var rank = 0
        for (position, id) in order.enumerated() {
            if position > 0, distinct[order[position - 1]] != distinct[id] { rank += 1 }
            rankOfID[id] = rank
        }
        return idOfElement.map { rankOfID[$0] }
    }

    /// A comparator of element indexes in this column's direction. The key array is captured
    /// once, so comparing costs no reference counting.
    func comparator() -> (Int, Int) throws -> ComparisonResult {
        let ascending = self.ascending
        switch storage {
        case .integers(let keys):
            return { a, b in
                let (x, y) = ascending ? (keys[a], keys[b]) : (keys[b], keys[a])
                return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
            }
        case .general(let keys):
            let comparison = self.comparison
            return { a, b in
                let result = try SortKey.compare(keys[a], keys[b], comparison)
                return ascending ? result : result.inverted
            }
        }
    }
}

extension Sequence {
    /// The elements sorted by `descriptors`: by the first, then the second for ties, and so on
    /// (Apple: `NSArray.sortedArray(using:)`).
    ///
    /// Each element's keys are read once (not once per comparison), and the sort is stable:
    /// elements that compare equal keep their order.
    ///
    /// ```swift
    /// let sorted = try people.sorted(using: [
    ///     KeyValueSortDescriptor(key: "lastName"),
    ///     KeyValueSortDescriptor(key: "age", ascending: false),
    /// ])
    /// ```
    ///
    /// - Parameter descriptors: The sort descriptors, most significant first.
    /// - Returns: The sorted elements.
    /// - Throws: `KeyValueCodingError` when a key cannot be read;
    ///   ``PredicateEvaluationError/incomparableValues(operation:left:right:)`` for values that cannot
    ///   be ordered against each other.
    /// - Complexity: O(*n* log *n*) comparisons, O(*n* × *d*) key reads for *d* descriptors.
    public func sorted(using descriptors: [KeyValueSortDescriptor]) throws -> [Element] {
        let elements = Array(self)
        let order = try KeyValueSorting.sortedIndices(of: elements, using: descriptors)
        return order.map { elements[$0] }
    }
}

extension Array {
    /// Sorts the array in place by `descriptors` (Apple: `NSMutableArray.sort(using:)`).
    ///
    /// - Parameter descriptors: The sort descriptors, most significant first.
    /// - Throws: As ``Swift/Sequence/sorted(using:)``; the array is unchanged then.
    /// - Complexity: O(*n* log *n*) comparisons.
    public mutating func sort(using descriptors: [KeyValueSortDescriptor]) throws {
        self = try sorted(using: descriptors)
    }
}

enum KeyValueSorting {
    static func sortedIndices<Element>(of elements: [Element],
                                       using descriptors: [KeyValueSortDescriptor]) throws -> [Int] {
        let columns = try descriptors.map { try SortColumn($0, elements: elements, count: elements.count).comparator() }
        var indices = Array(elements.indices)
        if columns.count == 2 {
            let (first, second) = (columns[0], columns[1])
            try indices.sort { a, b in
                let r = try first(a, b)
                if r != .orderedSame { return r == .orderedAscending }
                let s = try second(a, b)
                if s != .orderedSame { return s == .orderedAscending }
                return a < b
            }
            return indices
        }
        try indices.sort { a, b in
            for column in columns {
                let r = try column(a, b)
                if r != .orderedSame { return r == .orderedAscending }
            }
            return a < b
        }
        return indices
    }
}
