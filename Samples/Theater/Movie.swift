// The model of the theater sample: movies in an observable to-many property.

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
/// Commands change `movies` through `mutableArrayValue(forKey: "movies")`, so observers learn
/// which indexes were inserted, removed or replaced. (Named `HomeTheater` because the module is
/// called `Theater`.)
///
/// Not thread-safe: it belongs to the session that created it.
public final class HomeTheater: KeyValueObservable {
    /// The movies, in program order.
    @Observed public var movies: [Movie] = []

    /// Creates an empty theater.
    public init() {}
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
