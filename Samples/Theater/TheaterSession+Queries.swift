// The commands that only read: find (predicates) and stats (collection operators).

import Foundation
import KeyValueCoding
import Predicates

extension TheaterSession {
    /// `find PREDICATE`: the movies matching a predicate in Apple's format language, with their
    /// numbers on the program. Changes nothing.
    func find(_ format: String) throws -> String {
        let predicate: KeyValuePredicate
        do {
            predicate = try KeyValuePredicate(format: format)
        } catch {
            throw TheaterError.badPredicate("\(error) in '\(format)'")
        }
        let movies = theater.movies
        let matches: [Movie]
        do {
            _ = try predicate.evaluate(with: Self.probe)   // unknown keys fail even with no movies
            matches = try movies.filtered(using: predicate)
        } catch {
            throw TheaterError.predicateFailed("\(error)")
        }
        var lines: [String] = []
        if !matches.isEmpty { lines.append(TheaterListing.header) }
        for movie in matches {
            guard let index = movies.firstIndex(where: { $0 === movie }) else { continue }
            lines.append(String(format: "%2d", index + 1) + "  " + listing.rows[index])
        }
        let noun = movies.count == 1 ? "movie" : "movies"
        let verb = matches.count == 1 ? "matches" : "match"   // "1 of 3 movies matches"
        lines.append("\(matches.count) of \(movies.count) \(noun) \(verb) \(predicate.predicateFormat)")
        return lines.joined(separator: "\n")
    }

    /// `stats`: `@count`, `@avg.rating`, `@max.year` and `@sum.minutes` of the program, read
    /// with key-value coding's collection operators. Changes nothing.
    func statistics() throws -> String {
        let count = Self.number(try theater.value(forKeyPath: "movies.@count")) ?? 0
        var lines = ["movies:         \(Int(count))"]
        guard count > 0 else { return lines.joined(separator: "\n") }
        let average = Self.number(try theater.value(forKeyPath: "movies.@avg.rating")) ?? 0
        let latest = try theater.value(forKeyPath: "movies.@max.year")
        let minutes = Int(Self.number(try theater.value(forKeyPath: "movies.@sum.minutes")) ?? 0)
        lines.append("average rating: " + String(format: "%.2f", average))
        // `@max` keeps the year an Int; a Double is formatted, never converted (`Int(Double(Int.max))`
        // would trap).
        let year = (latest as? Int).map(String.init) ?? String(format: "%.0f", Self.number(latest) ?? 0)
        lines.append("latest year:    " + year)
        lines.append("total minutes:  \(minutes) (\(minutes / 60) h \(minutes % 60) min)")
        return lines.joined(separator: "\n")
    }

    private static func number(_ value: Any?) -> Double? {
        value.flatMap { KeyValueNumber($0)?.doubleValue }
    }
}
