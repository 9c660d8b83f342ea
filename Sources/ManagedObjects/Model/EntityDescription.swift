// Entities: a named kind of managed object, its properties and its place in the hierarchy.
import Foundation

/// A kind of managed object: its name, its properties and its parent entity
/// (Apple: `NSEntityDescription`).
///
/// An entity value holds its *own* (declared) properties in ``properties``. Inside a
/// ``ManagedObjectModel`` the model fills in what comes from the hierarchy: the inherited
/// properties (``allProperties``, ``propertiesByName`` include them, as Apple's do) and the
/// names of its subentities.
///
/// ```swift
/// let fruit = EntityDescription(name: "Fruit", isAbstract: true, properties: [
///     .attribute(AttributeDescription(name: "radius", type: .double, isOptional: false)),
/// ])
/// let apple = EntityDescription(name: "Apple", parent: "Fruit")
/// ```
///
/// - Important: Thread safety: a `Sendable` value.
public struct EntityDescription: Sendable {
    /// The entity's name (unique in its model).
    public var name: String
    /// The name of the class its objects are made from, as Xcode writes it
    /// (`representedClassName`; Apple: `managedObjectClassName`). The managed-object layer maps
    /// names to Swift classes explicitly; `nil` means the generic managed object.
    public var managedObjectClassName: String?
    /// Whether the entity has no objects of its own, only its subentities' (Apple: `isAbstract`).
    public var isAbstract: Bool
    /// The name of the parent entity, or `nil` for a root entity (Apple: `superentity`).
    public var parentName: String?
    /// The properties declared on this entity, in order (without inherited ones).
    public var properties: [PropertyDescription]
    /// Sets of property names whose values must be unique together across all objects of the
    /// entity; each inner array is one constraint (Apple: `uniquenessConstraints`).
    public var uniquenessConstraints: [[String]]
    /// The indexes a store builds for the entity (Apple: `indexes`).
    public var indexes: [FetchIndexDescription]
    /// Free-form key-value pairs for the app (not part of the version hash).
    public var userInfo: [String: String]
    /// Changes the version hash without changing anything else.
    public var versionHashModifier: String?
    /// The entity's name in the previous model version, for lightweight migration.
    public var renamingIdentifier: String?

    /// Filled by the model: the properties inherited from ancestors, root first.
    package var inheritedProperties: [PropertyDescription] = []
    /// Filled by the model: the names of the direct subentities, sorted.
    package var subentityNameList: [String] = []
    /// Filled by the model: the version hash computed with the whole hierarchy.
    package var resolvedVersionHash: ResolvedVersionHash?

    /// Creates an entity description.
    ///
    /// - Parameters:
    ///   - name: The entity's name.
    ///   - parent: The parent entity's name, or `nil` (default).
    ///   - isAbstract: Whether it has no objects of its own (default `false`).
    ///   - className: The managed-object class name, or `nil` for the generic class.
    ///   - properties: Its own properties.
    public init(name: String, parent: String? = nil, isAbstract: Bool = false,
                className: String? = nil, properties: [PropertyDescription] = []) {
        self.name = name
        self.parentName = parent
        self.isAbstract = isAbstract
        self.managedObjectClassName = className
        self.properties = properties
        self.uniquenessConstraints = []
        self.indexes = []
        self.userInfo = [:]
        self.versionHashModifier = nil
        self.renamingIdentifier = nil
    }

    /// Every property, inherited ones first (root first), then this entity's own
    /// (Apple: `properties`, which includes inherited ones). Outside a model: the own ones.
    public var allProperties: [PropertyDescription] { inheritedProperties + properties }

    /// Every property by name, inherited ones included (Apple: `propertiesByName`).
    public var propertiesByName: [String: PropertyDescription] {
        Dictionary(allProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every attribute by name, inherited ones included (Apple: `attributesByName`).
    public var attributesByName: [String: AttributeDescription] {
        Dictionary(allProperties.compactMap { p in p.attribute.map { (p.name, $0) } },
                   uniquingKeysWith: { first, _ in first })
    }

    /// Every relationship by name, inherited ones included (Apple: `relationshipsByName`).
    public var relationshipsByName: [String: RelationshipDescription] {
        Dictionary(allProperties.compactMap { p in p.relationship.map { (p.name, $0) } },
                   uniquingKeysWith: { first, _ in first })
    }

    /// Every fetched property by name, inherited ones included.
    public var fetchedPropertiesByName: [String: FetchedPropertyDescription] {
        Dictionary(allProperties.compactMap { p in p.fetchedProperty.map { (p.name, $0) } },
                   uniquingKeysWith: { first, _ in first })
    }

    /// The names of the direct subentities, sorted (Apple: `subentities`). Empty outside a
    /// model.
    public var subentityNames: [String] { subentityNameList }

    /// The property named `name`, inherited ones included, or `nil`.
    ///
    /// - Complexity: O(*n*) in the number of properties.
    public func property(named name: String) -> PropertyDescription? {
        allProperties.first { $0.name == name }
    }
}

extension EntityDescription: Hashable {
    /// Entities are equal when what was declared is equal (the model-filled hierarchy facts
    /// follow from the declarations).
    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool {
        lhs.name == rhs.name && lhs.managedObjectClassName == rhs.managedObjectClassName
            && lhs.isAbstract == rhs.isAbstract && lhs.parentName == rhs.parentName
            && lhs.properties == rhs.properties && lhs.uniquenessConstraints == rhs.uniquenessConstraints
            && lhs.indexes == rhs.indexes && lhs.userInfo == rhs.userInfo
            && lhs.versionHashModifier == rhs.versionHashModifier
            && lhs.renamingIdentifier == rhs.renamingIdentifier
    }

    /// Hashes the declared facts.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(parentName)
        hasher.combine(properties)
    }
}
