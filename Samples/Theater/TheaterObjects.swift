// The typed managed objects of the theater sample: Theater ⟶ Movie, and where the model lives.

import Foundation
import ManagedObjects

/// A theater: a name, a city and the movies on its program. Deleting a theater deletes its
/// movies (the model's cascade rule).
///
/// Bound to the `Theater` entity of `Theater.xcdatamodeld` (the class is named `MovieTheater`
/// because the module is called `Theater`). Not thread-safe: a theater belongs to the context
/// (and thread) that made or fetched it.
public final class MovieTheater: ManagedObject {
    /// The entity the class is bound to: `Theater` (the class name differs).
    override public class var entityName: String { "Theater" }

    /// The theater's name: how commands name it, unique in a store.
    @Managed public var name: String
    /// The city the theater is in.
    @Managed public var city: String
    /// The movies on the program (to-many, cascade; the inverse of ``Movie/theater``).
    @Managed public var movies: Set<Movie>

    /// The theater as section headers show it: `Odeon (London)`.
    public var label: String { "\(name) (\(city))" }
}

/// A movie on a theater's program: four attributes and its theater.
///
/// Bound to the `Movie` entity. Not thread-safe, as every managed object.
public final class Movie: ManagedObject {
    /// The title, as typed (may contain spaces).
    @Managed public var title: String
    /// The year of release.
    @Managed public var year: Int64
    /// The rating, for example 8.7 out of 10.
    @Managed public var rating: Double
    /// The running time in minutes.
    @Managed public var minutes: Int64
    /// The theater showing the movie (to-one; the inverse of ``MovieTheater/movies``).
    @Managed public var theater: MovieTheater?

    /// The attribute keys `set`, `sort` and `find` take.
    public static let attributeKeys = ["title", "year", "rating", "minutes"]

    /// The ratings a movie may have: 0 to 10, as on the usual ten-point scales.
    public static let ratingRange = 0.0...10.0

    /// The running times a movie may have, in minutes: at least 1, and at most 100,000 (the
    /// longest films run some 86 hours), so that sums of thousands of movies stay exact.
    public static let minutesRange = 1...100_000
}

/// Where the theater's data model lives, and how it is loaded and bound to the typed classes.
///
/// The model is `Resources/Theater.xcdatamodeld`, written in the XML of Xcode's model editor
/// and copied unchanged into the target's resource bundle: Theater (name, city) ⟶ Movie
/// (title, year, rating, minutes), cascading from a theater to its movies, with the inverse
/// to-one `theater`.
public enum TheaterDataModel {
    /// The model folder in the resource bundle, or nil if the bundle lacks it.
    public static var url: URL? {
        Bundle.module.url(forResource: "Theater", withExtension: "xcdatamodeld")
    }

    /// Loads the model and binds ``MovieTheater`` and ``Movie`` to their entities.
    ///
    /// A new model each call: a coordinator makes the model it uses read-only.
    ///
    /// - Returns: The bound model.
    /// - Throws: ``TheaterError/unreadableModel(_:)`` when the file is missing, does not load,
    ///   or does not fit the classes.
    public static func load() throws(TheaterError) -> ManagedObjectModel {
        guard let url else { throw .unreadableModel("Theater.xcdatamodeld is not in the resource bundle") }
        do {
            let model = try ManagedObjectModel(contentsOf: url)
            try model.setManagedObjectClasses([MovieTheater.self, Movie.self])
            return model
        } catch {
            throw .unreadableModel("\(error)")
        }
    }
}
