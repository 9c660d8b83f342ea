// The commands that only read: find (any predicate, through a fetch request the SQLite store
// compiles to SQL), sort (the controller's sort descriptors) and stats (collection operators
// and a dictionary-result fetch), and the look-ups of theaters and movies.

import Foundation
import KeyValueCoding
import ManagedObjects
import Predicates

extension TheaterSession {
    /// `find PREDICATE`: the movies matching a predicate in Apple's format language, fetched
    /// with an ``EntityFetchRequest`` (the SQLite store evaluates what SQL can express), with
    /// their numbers in the listing. Changes nothing.
    func find(_ format: String) throws -> String {
        let predicate: KeyValuePredicate
        do {
            predicate = try KeyValuePredicate(format: format)
        } catch {
            throw TheaterError.badPredicate("\(error) in '\(format)'")
        }
        let matches: [Movie]
        do {
            _ = try predicate.evaluate(with: try Movie(in: context.model))   // unknown keys fail with no movies too
            matches = try context.fetch(EntityFetchRequest(entityName: "Movie", predicate: predicate), as: Movie.self)
        } catch {
            throw TheaterError.predicateFailed("\(error)")
        }
        let shown = listing.movies
        let numbers = matches.compactMap { movie in shown.firstIndex { $0 === movie }.map { $0 + 1 } }.sorted()
        var lines: [String] = []
        if !numbers.isEmpty { lines.append(TheaterListing.header) }
        for number in numbers {
            lines.append(TheaterListing.numbered(number, listing.row(numbered: number) ?? "?"))
        }
        let noun = shown.count == 1 ? "movie" : "movies"
        let verb = numbers.count == 1 ? "matches" : "match"   // "1 of 3 movies matches"
        lines.append("\(numbers.count) of \(shown.count) \(noun) \(verb) \(predicate.predicateFormat)")
        return lines.joined(separator: "\n")
    }

    /// `sort KEY [desc] ...`: the order of the movies within each theater (a view setting: not
    /// undoable, not saved). Shows the listing in the new order.
    func sort(by keys: [TheaterCommand.SortKey]) throws -> String {
        for key in keys where !Movie.attributeKeys.contains(key.key) { throw TheaterError.unknownKey(key.key) }
        let descriptors = keys.map { KeyValueSortDescriptor(key: $0.key, ascending: $0.ascending) }
        do {
            try listing.resort(by: descriptors)
        } catch {
            throw TheaterError.badSort("\(error)")
        }
        sortKeys = keys
        let order = keys.map { $0.key + ($0.ascending ? "" : " desc") }.joined(separator: ", ")
        return "movies sorted by \(order) in each theater\n" + listing.text
    }

    /// `stats`: the count, average rating, latest year and total minutes of all movies, from
    /// one dictionary-result fetch (`count:`, `average:`, `max:`, `sum:`); then per theater,
    /// `movies.@count`, `movies.@avg.rating` and `movies.@sum.minutes` (collection operators).
    func statistics() throws -> String {
        var request = EntityFetchRequest(entityName: "Movie")
        request.resultType = .dictionaries
        request.propertiesToFetch = [
            .expression(ExpressionDescription(name: "count", expression: .function(.count, [.keyPath("title")]))),
            .expression(ExpressionDescription(name: "rating", expression: .function(.average, [.keyPath("rating")]))),
            .expression(ExpressionDescription(name: "year", expression: .function(.max, [.keyPath("year")]))),
            .expression(ExpressionDescription(name: "minutes", expression: .function(.sum, [.keyPath("minutes")]))),
        ]
        let totals = try context.fetchDictionaries(request).first ?? [:]
        let count = Int(Self.number(totals["count"]) ?? 0)
        var lines = ["movies:         \(count)"]
        guard count > 0 else { return lines.joined(separator: "\n") }
        let minutes = Int(Self.number(totals["minutes"]) ?? 0)
        lines.append("average rating: " + String(format: "%.2f", Self.number(totals["rating"]) ?? 0))
        let year = totals["year"].map { value in (value as? Int64).map(String.init) ?? (value as? Int).map(String.init)
            ?? String(format: "%.0f", Self.number(value) ?? 0) } ?? "-"
        lines.append("latest year:    " + year)
        lines.append("total minutes:  \(minutes) (\(minutes / 60) h \(minutes % 60) min)")
        for theater in try theaters() where !theater.movies.isEmpty {
            let movies = Int(Self.number(try theater.value(forKeyPath: "movies.@count")) ?? 0)
            let average = Self.number(try theater.value(forKeyPath: "movies.@avg.rating")) ?? 0
            let total = Int(Self.number(try theater.value(forKeyPath: "movies.@sum.minutes")) ?? 0)
            lines.append("  \(theater.label): \(movies) movie\(movies == 1 ? "" : "s"), average rating "
                         + String(format: "%.2f", average) + ", \(total) min")
        }
        return lines.joined(separator: "\n")
    }

    private static func number(_ value: Any?) -> Double? {
        value.flatMap { KeyValueNumber($0)?.doubleValue }
    }

    // MARK: Look-ups

    /// Every theater, by name.
    func theaters() throws -> [MovieTheater] {
        var request = MovieTheater.fetchRequest()
        request.sortDescriptors = [KeyValueSortDescriptor(key: "name")]
        return try context.fetch(request, as: MovieTheater.self)
    }

    /// The theater of a name.
    func theater(named name: String) throws -> MovieTheater {
        let theaters = try self.theaters()
        guard let theater = theaters.first(where: { $0.name == name }) else {
            throw TheaterError.noTheater(name, known: theaters.map(\.name))
        }
        return theater
    }

    /// The movie numbered `index` in the listing (1-based).
    func movie(at index: Int) throws(TheaterError) -> Movie {
        let movies = listing.movies
        guard index >= 1, index <= movies.count else { throw .noMovie(index: index, count: movies.count) }
        return movies[index - 1]
    }
}
