// Version hashes of properties and entities: what identifies their stored form.
import Foundation

extension AttributeDescription {
    /// A 32-byte SHA-256 digest of what makes the attribute's stored form: its name, its
    /// optional and transient flags, its type, whether it allows external storage, whether it
    /// is preserved in history on deletion, and ``versionHashModifier``
    /// (Apple: `NSAttributeDescription.versionHash`).
    ///
    /// Default value, validation rules, value transformer, class name, user info, indexing and
    /// renaming identifier do not enter it. Equal to Core Data's value for the same attribute.
    /// For a derived attribute Core Data hashes the derivation expression only; for a composite
    /// attribute, its elements (see Docs/ManagedObjects.md, "Version hashes").
    ///
    /// - Complexity: O(*n*) in the length of the names.
    public var versionHash: Data { Data(VersionHashing.attribute(self)) }
}

extension RelationshipDescription {
    /// A 32-byte SHA-256 digest of what makes the relationship's stored form: its name, its
    /// optional and transient flags, the destination entity's name, the inverse's name, the
    /// minimum and maximum counts, whether it is ordered, and ``versionHashModifier``
    /// (Apple: `NSRelationshipDescription.versionHash`).
    ///
    /// The delete rule, user info, indexing and renaming identifier do not enter it. A
    /// relationship that is its own inverse leaves the inverse's name out, as Core Data does;
    /// outside a model that is assumed when ``inverseName`` equals ``name`` (inside a model the
    /// hierarchy decides, see ``ManagedObjectModel/entityVersionHashesByName``).
    public var versionHash: Data { Data(VersionHashing.standalone(.relationship(self))) }
}

extension FetchedPropertyDescription {
    /// A 32-byte SHA-256 digest of the property's name, optional flag and
    /// ``versionHashModifier`` (Apple: `NSFetchedPropertyDescription.versionHash`). Fetched
    /// properties are never stored, so it does not enter the entity's hash.
    public var versionHash: Data { Data(VersionHashing.standalone(.fetchedProperty(self))) }
}

extension PropertyDescription {
    /// The version hash of the attribute, relationship or fetched property
    /// (Apple: `NSPropertyDescription.versionHash`).
    public var versionHash: Data { Data(VersionHashing.standalone(self)) }
}

extension EntityDescription {
    /// A 32-byte SHA-256 digest of what makes the entity's stored form: its name, whether it is
    /// abstract, its parent's version hash, the version hashes of its stored (non-transient)
    /// attributes and relationships — inherited ones included — sorted by name, its
    /// ``versionHashModifier`` and its uniqueness constraints (Apple:
    /// `NSEntityDescription.versionHash`).
    ///
    /// Class name, user info, fetch indexes, renaming identifier, fetched properties and
    /// transient properties do not enter it. For an entity read from a ``ManagedObjectModel``
    /// it is computed with the whole hierarchy and equals the value Core Data writes into a
    /// store's `NSStoreModelVersionHashes`; for an entity value outside a model, from the
    /// value alone: the properties it carries, without a parent hash (its parent is only a
    /// name); so does an entity read from a model and then changed in what enters the hash.
    ///
    /// - Complexity: inside a model, O(*n*) in the number of properties (a comparison with the
    ///   declaration hashed when the model was built); otherwise O(*n* log *n*).
    public var versionHash: Data {
        if let resolved = resolvedVersionHash, resolved.applies(to: self) { return resolved.hash }
        return Data(VersionHashing.entity(self, parentHash: nil, propertyHash: VersionHashing.standalone))
    }
}
