// The request's order between two results, with each object's sort keys read once.
import Foundation
import KeyValueCoding
import Predicates

/// The sort descriptors of a request, split into the key paths to read and the comparisons to
/// make, so that placing one object by binary search reads its keys once and each probed
/// object's keys once (a descriptor's own `compare(_:to:)` prepares its key path on every call).
struct FetchedResultsOrder {
    /// Each descriptor's key path (`nil`: the object itself).
    private let keys: [String?]
    /// Whether each key is a key path (has a dot).
    private let isPath: [Bool]
    /// Whether each descriptor uses the plain `.compare` comparison (common values take a fast path).
    private let isPlainCompare: [Bool]
    /// Each descriptor without its key: it compares the values it is given.
    private let comparisons: [KeyValueSortDescriptor]

    init(_ descriptors: [KeyValueSortDescriptor]) {
        keys = descriptors.map(\.key)
        isPath = descriptors.map { $0.key?.contains(".") ?? false }
        isPlainCompare = descriptors.map { descriptor in
            if case .compare = descriptor.comparison { return true }
            return false
        }
        comparisons = descriptors.map { KeyValueSortDescriptor(key: nil, ascending: $0.ascending, comparison: $0.comparison) }
    }

    /// The sort key values of an object (`nil` where a key cannot be read).
    func values(of object: ManagedObject) -> [Any?] {
        var values: [Any?] = []
        values.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() {
            guard let key else {
                values.append(object)
                continue
            }
            // A plain key skips parsing a key path on every read.
            let value = isPath[index] ? try? object.value(forKeyPath: key) : try? object.value(forKey: key)
            values.append(value ?? nil)
        }
        return values
    }

    /// `objects` in this order (stable: equal objects keep their order), keys read once each.
    func sorted(_ objects: [ManagedObject]) -> [ManagedObject] {
        guard objects.count > 1 else { return objects }
        let keyed = objects.map { (object: $0, values: values(of: $0)) }
        let order = keyed.indices.sorted { a, b in
            let result = compare(keyed[a].values, keyed[b].values)
            return result == .orderedSame ? a < b : result == .orderedAscending
        }
        return order.map { keyed[$0].object }
    }

    /// The order of two objects' sort key values; values that cannot be compared count as equal.
    func compare(_ a: [Any?], _ b: [Any?]) -> ComparisonResult {
        for (index, comparison) in comparisons.enumerated() {
            var result: ComparisonResult
            if isPlainCompare[index], let fast = Self.plainOrder(a[index], b[index]) {
                result = comparison.ascending ? fast : Self.inverted(fast)
            } else {
                result = (try? comparison.compare(a[index], to: b[index])) ?? .orderedSame
            }
            if result != .orderedSame { return result }
        }
        return .orderedSame
    }

    /// The `.compare` order of the common attribute values (`nil` first, integers, doubles with
    /// NaN first, strings by their characters), as the sort descriptor orders them; `nil` for
    /// other values, which the descriptor compares.
    private static func plainOrder(_ a: Any?, _ b: Any?) -> ComparisonResult? {
        switch (a, b) {
        case (nil, nil): return .orderedSame
        case (nil, _): return .orderedAscending
        case (_, nil): return .orderedDescending
        case let (x as Int64, y as Int64): return NumberOrdering.ordered(x, y)
        case let (x as Int, y as Int): return NumberOrdering.ordered(x, y)
        case let (x as Int32, y as Int32): return NumberOrdering.ordered(x, y)
        case let (x as Double, y as Double): return NumberOrdering.ordered(x, y)
        case let (x as String, y as String): return NumberOrdering.ordered(x, y)
        default: return nil
        }
    }

    private static func inverted(_ result: ComparisonResult) -> ComparisonResult {
        switch result {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }
}
