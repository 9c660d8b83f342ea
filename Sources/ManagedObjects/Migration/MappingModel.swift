// Inferred mapping models: how each entity and property of one model version comes from the
// previous one.
import Foundation
import Predicates

/// How the objects of a store written with one model version become objects of another
/// (Apple: `NSMappingModel`, as `inferredMappingModel(forSourceModel:destinationModel:)`
/// builds it).
///
/// Inference matches each destination entity and property with the source one of the same
/// name, or of the name in its ``EntityDescription/renamingIdentifier`` (a rename). It allows
/// added and removed entities, attributes and relationships, renames, an optional attribute
/// becoming required when it has a default value, and changed delete rules, validation rules
/// and other settings that do not change what is stored. It refuses (naming the entity and
/// property) a changed attribute type, a new required attribute or relationship without a
/// default, a relationship whose cardinality or destination changed, and an entity whose
/// parent changed.
public struct MappingModel: Sendable, Hashable {
    /// How one destination entity's objects are made.
    public struct EntityMapping: Sendable, Hashable {
        /// The source entity, or `nil` for an entity new in the destination model.
        public var sourceEntity: String?
        /// The destination entity.
        public var destinationEntity: String
        /// Destination attribute → source attribute (`nil`: new, takes its default value).
        public var attributes: [String: String?]
        /// Default values of destination attributes, for new ones and for `nil` source values
        /// of attributes that became required.
        public var defaults: [String: KeyValueConstant]
        /// Destination relationship → source relationship (`nil`: new, empty).
        public var relationships: [String: String?]
    }

    /// One mapping per destination entity.
    public var entityMappings: [EntityMapping]

    /// Infers the mapping between two model versions.
    ///
    /// - Parameters:
    ///   - source: The model that wrote the store.
    ///   - destination: The model to migrate to.
    /// - Returns: The mapping.
    /// - Throws: ``StoreManagementError/cannotInferMapping(entity:property:reason:)`` for the
    ///   first change that cannot be inferred (entities in name order).
    public static func inferred(from source: ManagedObjectModel, to destination: ManagedObjectModel) throws -> MappingModel {
        var mappings: [EntityMapping] = []
        func sourceName(ofDestinationEntity name: String) -> String? {
            guard let entity = destination.entity(named: name) else { return nil }
            if let renamed = entity.renamingIdentifier, source.entity(named: renamed) != nil { return renamed }
            return source.entity(named: name) != nil ? name : nil
        }
        for entity in destination.entities.sorted(by: { $0.name < $1.name }) {
            let refuse = { (property: String?, reason: String) in
                StoreManagementError.cannotInferMapping(entity: entity.name, property: property, reason: reason)
            }
            guard let sourceEntityName = sourceName(ofDestinationEntity: entity.name),
                  let sourceEntity = source.entity(named: sourceEntityName) else {
                mappings.append(EntityMapping(sourceEntity: nil, destinationEntity: entity.name, attributes: [:], defaults: [:], relationships: [:]))
                continue
            }
            let parentNow = entity.parentName.flatMap(sourceName(ofDestinationEntity:))
            if parentNow != sourceEntity.parentName && !(entity.parentName == nil && sourceEntity.parentName == nil) {
                throw refuse(nil, "its parent entity changed (from \(sourceEntity.parentName ?? "none") to \(entity.parentName ?? "none"))")
            }
            var sourceProperties: [String: PropertyDescription] = [:]
            for property in sourceEntity.allProperties where !property.isTransient { sourceProperties[property.name] = property }
            func counterpart(of property: PropertyDescription) -> PropertyDescription? {
                if let renamed = property.renamingIdentifier, let found = sourceProperties[renamed] { return found }
                return sourceProperties[property.name]
            }
            var mapping = EntityMapping(sourceEntity: sourceEntityName, destinationEntity: entity.name,
                                        attributes: [:], defaults: [:], relationships: [:])
            for property in entity.allProperties where !property.isTransient {
                switch property {
                case .attribute(let attribute):
                    if let value = attribute.defaultValue { mapping.defaults[attribute.name] = value }
                    switch counterpart(of: property) {
                    case .attribute(let old)?:
                        guard old.attributeType == attribute.attributeType else {
                            throw refuse(attribute.name, "its type changed from \(old.attributeType.rawValue) to \(attribute.attributeType.rawValue)")
                        }
                        if old.isOptional && !attribute.isOptional && attribute.defaultValue == nil {
                            throw refuse(attribute.name, "it became required without a default value for objects that have none")
                        }
                        mapping.attributes[attribute.name] = .some(old.name)
                    case nil:
                        if !attribute.isOptional && attribute.defaultValue == nil {
                            throw refuse(attribute.name, "it is a new required attribute without a default value")
                        }
                        mapping.attributes[attribute.name] = .some(nil)
                    case .some:
                        throw refuse(attribute.name, "it was a relationship and is now an attribute")
                    }
                case .relationship(let relationship):
                    switch counterpart(of: property) {
                    case .relationship(let old)?:
                        guard old.cardinality == relationship.cardinality else {
                            throw refuse(relationship.name, "its cardinality changed from \(old.cardinality) to \(relationship.cardinality)")
                        }
                        guard sourceName(ofDestinationEntity: relationship.destinationEntityName) == old.destinationEntityName else {
                            throw refuse(relationship.name, "its destination changed from \(old.destinationEntityName) to \(relationship.destinationEntityName)")
                        }
                        mapping.relationships[relationship.name] = .some(old.name)
                    case nil:
                        if !relationship.isOptional {
                            throw refuse(relationship.name, "it is a new required relationship, which existing objects cannot fill")
                        }
                        mapping.relationships[relationship.name] = .some(nil)
                    case .some:
                        throw refuse(relationship.name, "it was an attribute and is now a relationship")
                    }
                case .fetchedProperty:
                    break
                }
            }
            mappings.append(mapping)
        }
        return MappingModel(entityMappings: mappings)
    }

    /// The mapping whose source is `entityName`, if any.
    func mapping(forSourceEntity entityName: String) -> EntityMapping? {
        entityMappings.first { $0.sourceEntity == entityName }
    }
}
