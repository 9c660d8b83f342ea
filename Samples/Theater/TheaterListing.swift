// The view layer: the printed listing, kept up to date by key-value observing. It redraws only
// the rows that changed.

import Foundation
import KeyValueCoding
import KeyValueObserving

/// The program as printed rows, updated by observing the theater and its movies.
///
/// The listing keeps one rendered line per movie. It observes the theater's `movies` (with the
/// to-many change kinds and indexes) and the four attributes of every movie on the program; each
/// change re-renders only the affected rows and is reported as a *redraw*:
///
/// ```
/// + 3  The Matrix                  1999  8.7  136 min     inserted at 3
/// ~ 3  The Matrix                  1999  9.0  136 min     changed
/// - 3  The Matrix                                         removed from 3
/// ```
///
/// Rows that only shifted position (after an insertion or removal above them) are not redrawn:
/// their text is unchanged and their number follows from their place.
///
/// Not thread-safe: create and use it on the thread that changes the theater.
public final class TheaterListing {
    /// The theater shown.
    public let theater: HomeTheater

    /// The rendered rows, without their numbers, in program order.
    public private(set) var rows: [String] = []

    /// How many rows have been rendered since the listing was created (to see that only
    /// changed rows are redrawn).
    public private(set) var renderCount = 0

    /// The movies as the listing last saw them (to find a movie's row).
    private var shown: [Movie] = []
    /// Redraw lines not yet taken by ``takeRedraws()``.
    private var redraws: [String] = []
    /// The observation of the theater's movies.
    private var programObservation: KeyValueObservation?
    /// The observations of each movie's attributes.
    private var movieObservations: [ObjectIdentifier: [KeyValueObservation]] = [:]

    /// Creates the listing and starts observing `theater`.
    ///
    /// - Parameter theater: The theater to show.
    /// - Throws: `KeyValueObservingError` if the model lacks an observed key (a programming
    ///   error in the sample).
    public init(theater: HomeTheater) throws {
        self.theater = theater
        let listing = Confined(self)
        // No old or new values: the listing reads the inserted movies out of `theater.movies`
        // itself, at the change's indexes (change records would copy the whole array).
        programObservation = try theater.observe("movies", options: []) { _, change in
            listing.object.programDidChange(change)
        }
        try show(theater.movies, at: IndexSet(integersIn: 0..<theater.movies.count), redraw: false)
    }

    /// The whole listing: a header and one numbered row per movie.
    public var text: String {
        guard !rows.isEmpty else { return "(no movies)" }
        var lines = [Self.header]
        for (index, row) in rows.enumerated() { lines.append(Self.numbered(index + 1, row)) }
        return lines.joined(separator: "\n")
    }

    /// The column titles.
    public static let header = " #  " + pad("title", to: titleWidth) + "  year  rating  minutes"

    /// Returns the redraws since the last call, and forgets them.
    public func takeRedraws() -> [String] {
        defer { redraws = [] }
        return redraws
    }

    // MARK: Observing

    private func programDidChange(_ change: KeyValueChange) {
        let program = theater.movies
        let movies = change.indexes.map { indexes in
            indexes.filter { $0 < program.count }.map { program[$0] }
        } ?? []
        switch change.kind {
        case .insertion:
            if let indexes = change.indexes { try? show(movies, at: indexes, redraw: true) }
        case .removal:
            if let indexes = change.indexes { hide(at: indexes) }
        case .replacement:
            guard let indexes = change.indexes else { return }
            hide(at: indexes, redraw: false)
            try? show(movies, at: indexes, redraw: true, marker: "~")
        case .setting:
            // The whole array was assigned: show it afresh.
            hide(at: IndexSet(integersIn: 0..<shown.count))
            try? show(theater.movies, at: IndexSet(integersIn: 0..<theater.movies.count), redraw: true)
        }
    }

    private func movieDidChange(_ movie: Movie) {
        guard let index = shown.firstIndex(where: { $0 === movie }) else { return }
        rows[index] = render(movie)
        redraws.append("~ " + Self.numbered(index + 1, rows[index]))
    }

    private func show(_ movies: [Movie], at indexes: IndexSet, redraw: Bool,
                      marker: String = "+") throws {
        for (movie, index) in zip(movies, indexes) {
            shown.insert(movie, at: index)
            rows.insert(render(movie), at: index)
            if redraw { redraws.append(marker + " " + Self.numbered(index + 1, rows[index])) }
            try observe(movie)
        }
    }

    private func hide(at indexes: IndexSet, redraw: Bool = true) {
        var removed: [String] = []
        for index in indexes.reversed() where index < shown.count {
            let movie = shown.remove(at: index)
            rows.remove(at: index)
            movieObservations[ObjectIdentifier(movie)] = nil
            removed.append("- " + Self.numbered(index + 1, movie.title))
        }
        // Reported top to bottom, like the other redraws.
        if redraw { redraws += removed.reversed() }
    }

    private func observe(_ movie: Movie) throws {
        let listing = Confined(self)
        var observations: [KeyValueObservation] = []
        for key in Movie.attributeKeys {
            observations.append(try movie.observe(key) { movie, _ in
                listing.object.movieDidChange(movie)
            })
        }
        movieObservations[ObjectIdentifier(movie)] = observations
    }

    // MARK: Rendering

    private static let titleWidth = 26

    private func render(_ movie: Movie) -> String {
        renderCount += 1
        return Self.pad(movie.title, to: Self.titleWidth) + "  " + String(movie.year)
            + "  " + Self.pad(String(format: "%6.1f", movie.rating), to: 6)
            + "  " + String(format: "%4d", movie.minutes) + " min"
    }

    private static func numbered(_ number: Int, _ row: String) -> String {
        String(format: "%2d", number) + "  " + row
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
