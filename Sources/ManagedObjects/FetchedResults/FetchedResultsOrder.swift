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
    /// Each descriptor without its key: it compares the values it is given.
    private let comparisons: [KeyValueSortDescriptor]

    init(_ descriptors: [KeyValueSortDescriptor]) {
        keys = descriptors.map(\.key)
        comparisons = descriptors.map { KeyValueSortDescriptor(key: nil, ascending: $0.ascending, comparison: $0.comparison) }
    }

    /// The sort key values of an object (`nil` where a key cannot be read).
    func values(of object: ManagedObject) -> [Any?] {
        keys.map { key in
            guard let key else { return object }
            return (try? object.value(forKeyPath: key)) ?? nil
        }
    }

    /// The order of two objects' sort key values; values that cannot be compared count as equal.
    func compare(_ a: [Any?], _ b: [Any?]) -> ComparisonResult {
        for (index, comparison) in comparisons.enumerated() {
            let result = (try? comparison.compare(a[index], to: b[index])) ?? .orderedSame
            if result != .orderedSame { return result }
        }
        return .orderedSame
    }
}
