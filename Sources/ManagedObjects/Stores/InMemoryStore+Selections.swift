// A fetch of the in-memory store answered with the places of its rows, not copies of them.
import Foundation

/// The rows an ``InMemoryStore`` fetch selected, left where they lie in the store's rows (a
/// copy on write of each entity's rows, taken under the store's lock): the context reads each
/// selected row's ID and version in place and copies only the rows it fills an object from.
///
/// Copying a row retains every reference it holds (its ID, its packed values, its
/// relationships) and the copy is released after the fetch: for a fetch whose objects are
/// registered and loaded already, that was most of the store's share of the work.
///
/// The places and what was applied are exactly those of the store's
/// ``PersistentStore/fetch(_:)`` for the same request (``rows()`` gives its rows).
package struct InMemoryFetchSelection {
    /// The rows of each entity read.
    private let entities: [ContiguousArray<StoreRow>]
    /// The selected rows, in the answer's order.
    private let places: ArraySlice<InMemoryStore.Place>
    /// Whether only rows matching the predicate were selected.
    package let appliedPredicate: Bool
    /// Whether the rows are in the requested order, offset and limit applied.
    package let appliedOrderAndLimits: Bool

    init(entities: [InMemoryEntityRows], places: ArraySlice<InMemoryStore.Place>,
         appliedPredicate: Bool, appliedOrderAndLimits: Bool) {
        self.entities = entities.map(\.rows)
        self.places = places
        self.appliedPredicate = appliedPredicate
        self.appliedOrderAndLimits = appliedOrderAndLimits
    }

    /// How many rows were selected.
    package var count: Int { places.count }

    /// Calls `body` with each selected row in order, read in place (not copied).
    ///
    /// - Complexity: O(``count``).
    package func forEachRow(_ body: (UnsafePointer<StoreRow>) throws -> Void) rethrows {
        if entities.count == 1 {
            try entities[0].withUnsafeBufferPointer { rows in
                guard let base = rows.baseAddress else { return }
                for place in places { try body(base + place.position) }
            }
            return
        }
        for place in places {
            try entities[place.entity].withUnsafeBufferPointer { rows in try body(rows.baseAddress! + place.position) }
        }
    }

    /// The selected rows, copied, in order (what ``PersistentStore/fetch(_:)`` answers).
    package func rows() -> [StoreRow] {
        var rows: [StoreRow] = []
        rows.reserveCapacity(count)
        forEachRow { rows.append($0.pointee) }
        return rows
    }
}

extension InMemoryStore {
    /// ``fetch(_:)`` answered with the places of the selected rows rather than copies of them
    /// (see ``InMemoryFetchSelection``): the same rows, order and applied parts.
    ///
    /// - Parameter request: The entities, predicate, order and limits.
    /// - Returns: The selection.
    /// - Complexity: That of ``fetch(_:)`` without the copy of each selected row.
    /// - Important: Thread safety: takes the store's lock to copy the entities' rows (O(1)
    ///   each, copy on write), then reads them outside it.
    package func fetchSelection(_ request: StoreFetchRequest) -> InMemoryFetchSelection {
        let entities = rowsForFetch(request)
        let selection = Self.select(request, from: entities)
        return InMemoryFetchSelection(entities: entities, places: selection.places,
                                      appliedPredicate: selection.appliedPredicate,
                                      appliedOrderAndLimits: selection.appliedOrderAndLimits)
    }
}
