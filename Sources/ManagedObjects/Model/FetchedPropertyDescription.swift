// Fetched properties: a weak, one-way relationship defined by a fetch request.
import Foundation

/// A property whose value is the result of a fetch request, evaluated lazily for each object
/// (Apple: `NSFetchedPropertyDescription`).
///
/// The request's predicate may name `$FETCH_SOURCE` (the object whose property is read) and
/// `$FETCHED_PROPERTY` (this description), as in Core Data. The value is an array, never saved.
///
/// - Important: Thread safety: a `Sendable` value.
public struct FetchedPropertyDescription: Sendable, Hashable {
    /// The property's name: a key of the entity's objects.
    public var name: String
    /// The request that produces the value.
    public var fetchRequest: EntityFetchRequest
    /// Whether it may be empty (always true in practice; kept for round trips).
    public var isOptional: Bool
    /// Free-form key-value pairs for the app (not part of the version hash).
    public var userInfo: [String: String]
    /// Changes the version hash without changing anything else.
    public var versionHashModifier: String?
    /// The property's name in the previous model version.
    public var renamingIdentifier: String?

    /// Creates a fetched property.
    ///
    /// - Parameters:
    ///   - name: The key.
    ///   - fetchRequest: The request whose results are the property's value.
    public init(name: String, fetchRequest: EntityFetchRequest) {
        self.name = name
        self.fetchRequest = fetchRequest
        self.isOptional = true
        self.userInfo = [:]
        self.versionHashModifier = nil
        self.renamingIdentifier = nil
    }
}
