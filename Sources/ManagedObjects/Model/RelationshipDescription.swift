// Relationships of an entity: destination, inverse, cardinality, delete rule.
import Foundation

/// A reference from an entity's objects to objects of another (or the same) entity
/// (Apple: `NSRelationshipDescription`).
///
/// The destination and the inverse are named, not held: a relationship value can be built
/// before its destination exists. ``ManagedObjectModel`` checks the names when it is built and
/// answers ``ManagedObjectModel/destinationEntity(of:)`` and
/// ``ManagedObjectModel/inverseRelationship(of:)``.
///
/// ```swift
/// var movies = RelationshipDescription(name: "movies", destination: "Movie", inverse: "theater",
///                                      cardinality: .toMany, deleteRule: .cascade)
/// ```
///
/// - Important: Thread safety: a `Sendable` value.
public struct RelationshipDescription: Sendable, Hashable {
    /// What happens to related objects when an object is deleted
    /// (Apple: `NSDeleteRule`).
    public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
        /// Leave the related objects alone; their inverse keeps pointing at the deleted object
        /// until the app fixes it (Apple: `NSNoActionDeleteRule`; Xcode: "No Action").
        case noAction = "No Action"
        /// Remove the deleted object from the related objects' inverse (the default;
        /// Apple: `NSNullifyDeleteRule`).
        case nullify = "Nullify"
        /// Delete the related objects too (Apple: `NSCascadeDeleteRule`).
        case cascade = "Cascade"
        /// Refuse the delete while related objects exist (Apple: `NSDenyDeleteRule`).
        case deny = "Deny"
    }

    /// How many objects the relationship holds.
    public enum Cardinality: Sendable, Hashable {
        /// At most one (Apple: `isToMany == false`).
        case toOne
        /// A set (Apple: `isToMany`).
        case toMany
        /// An ordered set (Apple: `isToMany` and `isOrdered`).
        case orderedToMany
    }

    /// The relationship's name: a key of the entity's objects.
    public var name: String
    /// The name of the entity its objects belong to.
    public var destinationEntityName: String
    /// The name of the relationship on the destination that points back, or `nil` for an
    /// inverse-less relationship (allowed; ``ManagedObjectModel/warnings`` notes it, as Xcode
    /// does).
    public var inverseName: String?
    /// To-one, to-many or ordered to-many.
    public var cardinality: Cardinality
    /// What deleting an object does to the objects this relationship reaches.
    public var deleteRule: DeleteRule
    /// Whether a saved object may leave it empty (Apple's default: `true`).
    public var isOptional: Bool
    /// Whether it is kept in memory only, never saved.
    public var isTransient: Bool
    /// The fewest related objects a saved object may have (0: no minimum).
    public var minCount: Int
    /// The most related objects a saved object may have (0: no maximum).
    public var maxCount: Int
    /// Whether the store indexes it.
    public var isIndexed: Bool
    /// Whether Spotlight indexes it (kept for round trips; no effect on Linux).
    public var isIndexedBySpotlight: Bool
    /// Free-form key-value pairs for the app (not part of the version hash).
    public var userInfo: [String: String]
    /// Changes the version hash without changing anything else.
    public var versionHashModifier: String?
    /// The property's name in the previous model version, for lightweight migration.
    public var renamingIdentifier: String?

    /// Creates a relationship description.
    ///
    /// - Parameters:
    ///   - name: The key.
    ///   - destination: The name of the destination entity.
    ///   - inverse: The name of the inverse relationship on the destination, or `nil`.
    ///   - cardinality: To-one (default), to-many or ordered to-many.
    ///   - deleteRule: The delete rule (default nullify, as Apple).
    ///   - isOptional: Whether it may be empty when saved (default `true`).
    public init(name: String, destination: String, inverse: String? = nil,
                cardinality: Cardinality = .toOne, deleteRule: DeleteRule = .nullify,
                isOptional: Bool = true) {
        self.name = name
        self.destinationEntityName = destination
        self.inverseName = inverse
        self.cardinality = cardinality
        self.deleteRule = deleteRule
        self.isOptional = isOptional
        self.isTransient = false
        self.minCount = 0
        self.maxCount = cardinality == .toOne ? 1 : 0
        self.isIndexed = false
        self.isIndexedBySpotlight = false
        self.userInfo = [:]
        self.versionHashModifier = nil
        self.renamingIdentifier = nil
    }

    /// Whether it holds many objects (Apple: `isToMany`).
    public var isToMany: Bool { cardinality != .toOne }
    /// Whether it is an ordered to-many relationship (Apple: `isOrdered`).
    public var isOrdered: Bool { cardinality == .orderedToMany }
}
