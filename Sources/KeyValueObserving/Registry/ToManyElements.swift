import Foundation

/// An array whose elements at some positions can be picked without boxing the others.
///
/// To-many change records carry only the affected elements. Casting the whole property value
/// to `[Any]` would box every element of the array (O(n) per read); through this protocol the
/// value is opened once, as its own array type, and only the elements at the changed indexes
/// are boxed (O(k) for k indexes).
protocol IndexedElementsReading {
    /// The elements at `indexes` that exist, each boxed as `Any` as `[Any]` would hold it
    /// (an optional element stays an optional).
    ///
    /// - Complexity: O(k) for k indexes (IndexSet iteration), independent of the array's size.
    func observedElements(at indexes: IndexSet) -> [Any]
}

extension Array: IndexedElementsReading {
    func observedElements(at indexes: IndexSet) -> [Any] {
        var result: [Any] = []
        result.reserveCapacity(Swift.min(indexes.count, count))
        for index in indexes {
            guard index < count else { break }  // indexes are ascending: none further exists
            guard index >= 0 else { continue }
            result.append(self[index] as Any)
        }
        return result
    }
}

/// The elements of an array value at `indexes` (those that exist).
///
/// Swift arrays are read through ``IndexedElementsReading`` (O(k)); any other value that casts
/// to `[Any]` (a bridged `NSArray` on Apple platforms) is converted as before.
func elements(of value: Any?, at indexes: IndexSet) -> [Any] {
    if let array = value as? any IndexedElementsReading { return array.observedElements(at: indexes) }
    guard let array = value as? [Any] else { return [] }
    return indexes.compactMap { $0 < array.count ? array[$0] : nil }
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
