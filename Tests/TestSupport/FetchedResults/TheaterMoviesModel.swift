// The theaters-and-movies model of the fetched results controller tests, and their stack.
import Foundation
import ManagedObjects

/// Theaters (name, city) with movies (title, rank, serial, genre, rating): the sections of a
/// list of movies by theater, by city or by genre. A new model each call.
package enum TheaterMoviesModel {
    package static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Theater", properties: [
                .attribute("name", .string),
                .attribute("city", .string),
                .toMany("movies", "Movie", inverse: "theater", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Movie", properties: [
                .attribute("title", .string),
                .attribute("rank", .integer64),
                .attribute("serial", .integer64),
                .attribute("genre", .string),
                .attribute("rating", .integer64),
                .toOne("theater", "Theater", inverse: "movies"),
            ]),
        ])
    }
}

/// A coordinator on a store made by a test's factory, and contexts on it.
package struct FetchedResultsStack {
    package let coordinator: PersistentStoreCoordinator
    package let context: ManagedObjectContext

    /// A stack of the theater model on the factory's store.
    package init(_ makeStore: () throws -> any PersistentStore) throws {
        coordinator = PersistentStoreCoordinator(model: try TheaterMoviesModel.make())
        try coordinator.addStore(try makeStore())
        context = ManagedObjectContext(coordinator: coordinator)
    }

    /// Another context on the same stores.
    package func newContext() -> ManagedObjectContext { ManagedObjectContext(coordinator: coordinator) }

    /// Inserts a theater.
    @discardableResult
    package func theater(_ name: String, city: String, in context: ManagedObjectContext? = nil) throws -> ManagedObject {
        let theater = try (context ?? self.context).insertNewObject(forEntityNamed: "Theater")
        try theater.setValue(name, forKey: "name")
        try theater.setValue(city, forKey: "city")
        return theater
    }

    /// Inserts a movie; `serial` defaults to a counter so that ties sort the same every time.
    @discardableResult
    package func movie(_ title: String, rank: Int = 0, genre: String = "drama", rating: Int = 5,
                       theater: ManagedObject? = nil, serial: Int? = nil, in context: ManagedObjectContext? = nil) throws -> ManagedObject {
        let movie = try (context ?? self.context).insertNewObject(forEntityNamed: "Movie")
        try movie.setValue(title, forKey: "title")
        try movie.setValue(Int64(rank), forKey: "rank")
        try movie.setValue(Int64(serial ?? Self.nextSerial()), forKey: "serial")
        try movie.setValue(genre, forKey: "genre")
        try movie.setValue(Int64(rating), forKey: "rating")
        if let theater { try movie.setValue(theater, forKey: "theater") }
        return movie
    }

    private static let serials = SerialCounter()
    private static func nextSerial() -> Int { serials.next() }
}

import Synchronization

/// A process-wide counter for movie serials.
final class SerialCounter: Sendable {
    // An atomic, not a Mutex: the thread sanitizer sees atomics, not Mutex's futex.
    private let value = Atomic(0)
    func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).newValue }
}
