// The atomic file store's structural checks of a file against the model, made at load.
import Foundation
import Predicates

extension AtomicFileContents {
    /// Checks that every row fits the model: known, concrete entities; one row per key of an
    /// inheritance root; non-negative keys and versions; attribute values of the attribute's
    /// type; relationships naming saved objects of the destination entity (or a subentity),
    /// no more than one on a to-one relationship.
    ///
    /// A file that passes loads into objects whose every value the context can read as its
    /// declared type; anything else would be dropped, misread or crash a typed read later.
    ///
    /// - Parameters:
    ///   - model: The model the store is loaded for.
    ///   - roots: Each entity's inheritance root, by entity name.
    ///   - path: The file's path, for the error.
    /// - Throws: ``FileStoreError`` `.damaged` naming the entity, key and property at fault.
    /// - Complexity: O(*n*) in the number of rows and relationship entries.
    func validate(against model: ManagedObjectModel, roots: [String: String], path: String) throws {
        func damaged(_ reason: String) -> FileStoreError { FileStoreError(.damaged(reason), path: path) }
        let graph = model.graph
        var keys: [String: Set<Int64>] = [:]
        var ids = Set<ManagedObjectID>()
        ids.reserveCapacity(rows.count)
        for row in rows {
            let entity = row.objectID.entityName
            guard let description = graph.entity(named: entity) else {
                throw damaged("it holds objects of the entity \(entity), which the model does not have")
            }
            guard case .integer(let key) = row.objectID.referenceObject, key > 0 else {
                throw damaged("\(entity) \(row.objectID.referenceObject): the key is not a positive integer")
            }
            guard !description.isAbstract else { throw damaged("\(entity) \(key): the entity is abstract") }
            guard row.version >= 0 else { throw damaged("\(entity) \(key): negative version \(row.version)") }
            let root = roots[entity] ?? entity
            guard keys[root, default: []].insert(key).inserted else {
                throw damaged("\(entity) \(key): the key \(key) appears twice among the \(root) objects")
            }
            ids.insert(row.objectID)
            if let next = nextKeys[root], next < key {
                throw damaged("\(entity) \(key): nextKeys.\(root) is \(next), below a key in use")
            }
        }
        var properties: [String: Properties] = [:]
        for row in rows {
            let entity = row.objectID.entityName
            guard let description = graph.entity(named: entity) else { continue }
            let known = properties[entity] ?? Properties(description)
            properties[entity] = known
            try validate(row, of: known, graph: graph, ids: ids, damaged: damaged)
        }
    }

    /// An entity's attributes and relationships by name, made once per entity.
    private struct Properties {
        var attributes: [String: AttributeDescription]
        var relationships: [String: RelationshipDescription]
        init(_ entity: EntityDescription) {
            attributes = entity.attributesByName
            relationships = entity.relationshipsByName
        }
    }

    private func validate(_ row: StoreRow, of entity: Properties, graph: ModelGraph, ids rowIDs: Set<ManagedObjectID>,
                          damaged: (String) -> FileStoreError) throws {
        let name = "\(row.objectID.entityName) \(row.objectID.referenceObject.integerValue ?? 0)"
        let attributes = entity.attributes
        for (key, value) in row.attributes {
            guard let attribute = attributes[key] else { throw damaged("\(name): the entity has no attribute \(key)") }
            if case .null = value { continue }
            guard case .some(.some) = attribute.typedValue(from: value) else {
                throw damaged("\(name): \(key) holds \(value), not a \(attribute.attributeType.rawValue) value")
            }
        }
        let relationships = entity.relationships
        for (key, ids) in row.relationships {
            guard let relationship = relationships[key] else { throw damaged("\(name): the entity has no relationship \(key)") }
            if !relationship.isToMany, ids.count > 1 {
                throw damaged("\(name): the to-one relationship \(key) holds \(ids.count) objects")
            }
            var seen = Set<ManagedObjectID>()
            for id in ids {
                let target = "\(id.entityName) \(id.referenceObject.integerValue ?? 0)"
                guard graph.isKind(id.entityName, of: relationship.destinationEntityName) else {
                    throw damaged("\(name): \(key) leads to \(target), not a \(relationship.destinationEntityName)")
                }
                guard rowIDs.contains(id) else {
                    throw damaged("\(name): \(key) leads to \(target), which is not in the file")
                }
                guard seen.insert(id).inserted else { throw damaged("\(name): \(key) holds \(target) twice") }
            }
        }
    }
}
