// One property of an entity: an attribute, a relationship or a fetched property.
import Foundation

/// A property of an entity (Apple: `NSPropertyDescription` and its subclasses).
///
/// Switch over it for what only one kind has; the common facts (``name``, ``isOptional``,
/// ``isTransient``, ``userInfo``…) are answered for every kind.
///
/// - Important: Thread safety: a `Sendable` value.
public enum PropertyDescription: Sendable, Hashable {
    /// A value (Apple: `NSAttributeDescription`).
    case attribute(AttributeDescription)
    /// A reference to other objects (Apple: `NSRelationshipDescription`).
    case relationship(RelationshipDescription)
    /// A fetch request's results (Apple: `NSFetchedPropertyDescription`).
    case fetchedProperty(FetchedPropertyDescription)

    /// The property's name.
    public var name: String {
        switch self {
        case .attribute(let a): return a.name
        case .relationship(let r): return r.name
        case .fetchedProperty(let f): return f.name
        }
    }

    /// Whether a saved object may leave it empty.
    public var isOptional: Bool {
        switch self {
        case .attribute(let a): return a.isOptional
        case .relationship(let r): return r.isOptional
        case .fetchedProperty(let f): return f.isOptional
        }
    }

    /// Whether it is never saved (fetched properties never are).
    public var isTransient: Bool {
        switch self {
        case .attribute(let a): return a.isTransient
        case .relationship(let r): return r.isTransient
        case .fetchedProperty: return true
        }
    }

    /// The app's key-value pairs.
    public var userInfo: [String: String] {
        switch self {
        case .attribute(let a): return a.userInfo
        case .relationship(let r): return r.userInfo
        case .fetchedProperty(let f): return f.userInfo
        }
    }

    /// The version hash modifier, or `nil`.
    public var versionHashModifier: String? {
        switch self {
        case .attribute(let a): return a.versionHashModifier
        case .relationship(let r): return r.versionHashModifier
        case .fetchedProperty(let f): return f.versionHashModifier
        }
    }

    /// The renaming identifier, or `nil`.
    public var renamingIdentifier: String? {
        switch self {
        case .attribute(let a): return a.renamingIdentifier
        case .relationship(let r): return r.renamingIdentifier
        case .fetchedProperty(let f): return f.renamingIdentifier
        }
    }

    /// The attribute, when it is one.
    public var attribute: AttributeDescription? {
        if case .attribute(let a) = self { return a }
        return nil
    }

    /// The relationship, when it is one.
    public var relationship: RelationshipDescription? {
        if case .relationship(let r) = self { return r }
        return nil
    }

    /// The fetched property, when it is one.
    public var fetchedProperty: FetchedPropertyDescription? {
        if case .fetchedProperty(let f) = self { return f }
        return nil
    }
}
