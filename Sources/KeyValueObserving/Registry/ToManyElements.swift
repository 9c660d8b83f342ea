import Foundation
import KeyValueCoding

/// The elements of a to-many value at `indexes` (those that exist), for change records.
///
/// Read through key-value coding's collection views (Swift and Foundation arrays, ordered sets
/// and sets), which box only the elements asked for: O(k) for k indexes, independent of the
/// collection's size. A `nil` element of an array of optionals is reported as `NSNull`, as an
/// `NSArray` holds it on Apple platforms.
func elements(of value: Any?, at indexes: IndexSet) -> [Any] {
    guard let value, let collection = keyValueCollection(of: value) else { return [] }
    return collection.keyValueElements(at: indexes).map { $0 ?? NSNull() }
}

/// The value of a to-many key, read at most once per notification and shared by every
/// registration that needs it.
///
/// Every to-many entry of a ``KeyObservers`` list is a leaf node on the list's own object, so all
/// of them report the same value; the first one that needs it reads it.
struct SharedValue {
    private var value: Any??

    /// The value, read with `read` the first time only.
    mutating func get(_ read: () -> Any?) -> Any? {
        if let value { return value }
        let fresh = read()
        value = .some(fresh)
        return fresh
    }
}
