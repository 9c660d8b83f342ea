// The model of the theater sample: movies in an observable to-many property.

import Foundation
import KeyValueCoding
import KeyValueObserving

/// A movie of the program: four observable attributes.
///
/// Every attribute is `@Observed`, so a store notifies observers (the listing redraws its row,
/// the undo recorder registers the inverse) without any code in a setter. Key-value coding sees
/// them as `title`, `year`, `rating` and `minutes`.
///
/// Not thread-safe: a movie belongs to the session that created it.
public final class Movie: KeyValueObservable {
    /// The title, as typed (may contain spaces).
    @Observed public var title: String
    /// The year of release.
    @Observed public var year: Int
    /// The rating, for example 8.7 out of 10.
    @Observed public var rating: Double
    /// The running time in minutes.
    @Observed public var minutes: Int

    /// The keys the listing shows and the undo recorder records.
    public static let attributeKeys = ["title", "year", "rating", "minutes"]

    /// The ratings a movie may have: 0 to 10, as on the usual ten-point scales.
    public static let ratingRange = 0.0...10.0

    /// The running times a movie may have, in minutes: at least 1, and at most 100,000 (the
    /// longest films run some 86 hours), so that sums of thousands of movies stay exact.
    public static let minutesRange = 1...100_000

    /// Creates a movie.
    ///
    /// - Parameters:
    ///   - title: The title.
    ///   - year: The year of release.
    ///   - rating: The rating.
    ///   - minutes: The running time in minutes.
    public init(title: String, year: Int, rating: Double, minutes: Int) {
        self.title = title
        self.year = year
        self.rating = rating
        self.minutes = minutes
    }
}

/// The theater: its program is the observable to-many property `movies`.
///
/// Commands change `movies` through `mutableArrayValue(forKey: "movies")`, or ``appendMovie(_:)``
/// for `add`, so observers learn which indexes were inserted, removed or replaced. (Named `HomeTheater` because the module is
/// called `Theater`.)
///
/// Not thread-safe: it belongs to the session that created it.
public final class HomeTheater: KeyValueObservable {
    /// The movies, in program order.
    @Observed public var movies: [Movie] = []

    /// Creates an empty theater.
    public init() {}

    /// Appends `movie` to the program, telling observers with a to-many insertion at the end.
    ///
    /// The indexed accessor a class writes on Apple platforms for a fast to-many property
    /// (`insertObject:inMoviesAtIndex:`), with manual change notification:
    /// `willChange(.insertion, valuesAt:forKey:)`, the edit, `didChange`. Observers get the
    /// same change as from `mutableArrayValue(forKey: "movies").insert(_:at:)`, but the array is
    /// edited in place, where the proxy reads and rewrites all of it: amortized O(1) instead of
    /// O(*n*) for *n* movies.
    ///
    /// - Parameter movie: The movie to add.
    public func appendMovie(_ movie: Movie) {
        let indexes = IndexSet(integer: movies.count)
        willChange(.insertion, valuesAt: indexes, forKey: "movies")
        // Stores to `keyValueWrappedValue` do not notify (the change is announced above). The
        // array is taken out of the storage first, so appending does not copy it.
        var program = _movies.keyValueWrappedValue
        _movies.keyValueWrappedValue = []
        program.append(movie)
        _movies.keyValueWrappedValue = program
        didChange(.insertion, valuesAt: indexes, forKey: "movies")
    }
}

/// Carries an unowned reference to a session object into a `@Sendable` observation handler.
///
/// Why `@unchecked Sendable` is safe: key-value observing calls a handler synchronously on the
/// thread that makes the change, and a theater session (model, listing, recorder, history) is
/// created and driven on one thread, so the reference never crosses threads. It is `unowned`
/// because the referenced object owns the observation tokens: when it goes away its tokens are
/// invalidated and the handlers are never called again.
struct Confined<Object: AnyObject>: @unchecked Sendable {
    unowned let object: Object

    init(_ object: Object) { self.object = object }
}
