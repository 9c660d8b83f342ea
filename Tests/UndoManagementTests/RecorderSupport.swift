// Fixtures for the undo recorder tests: observable model classes and a snapshot of their state.

import KeyValueObserving
import Synchronization
@testable import UndoManagement

/// An element of a to-many property, compared by identity in snapshots.
final class Book: KeyValueObservable {
    @Observed var title: String
    init(_ title: String) { self.title = title }
}

/// A model with attributes of several types, an array and a set property.
final class Shelf: KeyValueObservable {
    @Observed var name = "Shelf"
    @Observed var capacity = 10
    @Observed var rating = 0.5
    @Observed var note: String?
    @Observed var books: [Book] = []
    @Observed var tags: Set<String> = []
    /// A plain stored property exposed as a computed key: it notifies only when changed
    /// through key-value coding (a plain stored `var` cannot be observed).
    var shelfNumber = 1

    static var computedKeys: [String: AnyKeyPath] { ["shelfNumber": \Shelf.shelfNumber] }
}

/// Everything a shelf holds, with books by identity, to compare exact states.
struct ShelfState: Equatable {
    var name: String
    var capacity: Int
    var rating: Double
    var note: String?
    var books: [ObjectIdentifier]
    var titles: [String]
    var tags: Set<String>
    var shelfNumber: Int

    init(_ shelf: Shelf) {
        name = shelf.name
        capacity = shelf.capacity
        rating = shelf.rating
        note = shelf.note
        books = shelf.books.map(ObjectIdentifier.init)
        titles = shelf.books.map(\.title)
        tags = shelf.tags
        shelfNumber = shelf.shelfNumber
    }
}

/// The keys of `Shelf` the tests record.
let shelfKeys = ["name", "capacity", "rating", "note", "books", "tags", "shelfNumber"]

/// A history without notifications, grouping by event (each test closes its events), with a
/// recorder of `shelf` (all keys).
func makeRecordedShelf() throws -> (UndoHistory, UndoRecorder, Shelf) {
    let history = makeHistory(groupsByEvent: true)
    let recorder = UndoRecorder(history: history)
    let shelf = Shelf()
    try recorder.record(shelf, keys: shelfKeys)
    return (history, recorder, shelf)
}

/// Counts the change notifications of one observation (thread-safe, for `@Sendable` handlers).
final class ChangeCounter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
