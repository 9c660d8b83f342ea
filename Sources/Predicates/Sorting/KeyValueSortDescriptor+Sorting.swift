// Sorting sequences with sort descriptors: keys read once per object, then a stable index sort.
import Foundation
import KeyValueCoding

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
    @inlinable
    public func sorted(using descriptors: [KeyValueSortDescriptor]) throws -> [Element] {
        let elements = Array(self)
        let order = try KeyValueSorting.sortedIndices(of: elements, using: descriptors)
        return KeyValueSorting.permuted(elements, by: order)
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

extension KeyValueSortDescriptor {
    /// The positions `0..<count` in the order `descriptors` give, for keys read already:
    /// `readings[d][i]` is descriptor `d`'s key of element `i` (what
    /// ``KeyValueCoding/KeyValuePath/reading(of:)-(AnyObject)`` gives). The same order as
    /// ``Swift/Sequence/sorted(using:)`` over the elements (stable), for a layer that holds its
    /// values by column (a store); `nil` when a descriptor compares with a comparator closure,
    /// which needs the values themselves.
    ///
    /// - Throws: As ``Swift/Sequence/sorted(using:)``.
    package static func sortedPositions(readings: [[KeyValueReading]], count: Int,
                                        using descriptors: [KeyValueSortDescriptor]) throws -> [Int]? {
        var columns: [SortColumn] = []
        for (descriptor, column) in zip(descriptors, readings) {
            if case .comparator = descriptor.comparison { return nil }
            columns.append(SortColumn(descriptor, readings: column))
        }
        return try KeyValueSorting.order(of: columns, count: count)
    }
}

@usableFromInline
enum KeyValueSorting {
    /// `elements` in the order of `order` (positions into `elements`).
    ///
    /// Elements are read in their original order and written to their sorted places, so the
    /// reference counting of class elements walks memory in order instead of jumping around.
    /// Inlinable, so that it is specialized for the caller's element type.
    @inlinable
    static func permuted<E>(_ elements: [E], by order: [Int]) -> [E] {
        let count = elements.count
        // No elements: the empty array itself. `init(unsafeUninitializedCapacity:)` with a
        // capacity of 0 writes its count into the runtime's shared empty-array storage, a
        // write the thread sanitizer reports as a race when two threads sort empty results.
        guard count > 0 else { return [] }
        let position = inversePermutation(order)
        return [E](unsafeUninitializedCapacity: count) { buffer, initialized in
            elements.withUnsafeBufferPointer { source in
                position.withUnsafeBufferPointer { position in
                    for i in 0..<count { (buffer.baseAddress! + position[i]).initialize(to: source[i]) }
                }
            }
            initialized = count
        }
    }

    /// Where each position goes: `result[order[k]] == k`.
    @usableFromInline
    static func inversePermutation(_ order: [Int]) -> [Int] {
        var position = [Int](repeating: 0, count: order.count)
        for (k, i) in order.enumerated() { position[i] = k }
        return position
    }

    /// The positions of `elements` in sorted order (stable).
    ///
    /// When every column is ranked, each element's ranks and its position are packed into one
    /// `UInt64` (when they fit), so the sort is a plain integer sort of distinct keys, stable
    /// by construction. Otherwise the positions are sorted with a comparator over the columns,
    /// ties broken by position.
    @usableFromInline
    static func sortedIndices<Element>(of elements: [Element],
                                       using descriptors: [KeyValueSortDescriptor]) throws -> [Int] {
        let columns = try descriptors.map { try SortColumn($0, elements: elements) }
        return try order(of: columns, count: elements.count)
    }

    /// The positions `0..<count` sorted by `columns` (stable).
    static func order(of columns: [SortColumn], count: Int) throws -> [Int] {
        if let packed = packedOrder(columns, count: count) { return packed }
        let comparators = columns.map { $0.comparator() }
        var indices = Array(0..<count)
        if comparators.count == 2 {
            let (first, second) = (comparators[0], comparators[1])
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
            for comparator in comparators {
                let r = try comparator(a, b)
                if r != .orderedSame { return r == .orderedAscending }
            }
            return a < b
        }
        return indices
    }

    /// The sorted positions through packed integer keys, or nil when a column is not ranked or
    /// the ranks and position need more than 64 bits.
    static func packedOrder(_ columns: [SortColumn], count: Int) -> [Int]? {
        var rankColumns: [(ranks: [Int], bits: Int)] = []
        let positionBits = bitWidth(count)
        var totalBits = positionBits
        for column in columns {
            guard case let .ranks(ranks, rankCount) = column.storage else { return nil }
            let bits = bitWidth(rankCount)
            totalBits += bits
            guard totalBits <= 64 else { return nil }
            if bits > 0 { rankColumns.append((ranks, bits)) }
        }
        var keys = [UInt64](repeating: 0, count: count)
        for column in rankColumns {
            column.ranks.withUnsafeBufferPointer { ranks in
                keys.withUnsafeMutableBufferPointer { keys in
                    for i in 0..<count { keys[i] = keys[i] << UInt64(column.bits) | UInt64(ranks[i]) }
                }
            }
        }
        let mask: UInt64 = positionBits == 64 ? .max : (1 << UInt64(positionBits)) - 1
        for i in 0..<count { keys[i] = keys[i] << UInt64(positionBits) | UInt64(i) }
        keys.sort()
        return keys.map { Int($0 & mask) }
    }

    /// The bits needed to hold the values `0..<count`.
    private static func bitWidth(_ count: Int) -> Int {
        count <= 1 ? 0 : Int.bitWidth - (count - 1).leadingZeroBitCount
    }
}
