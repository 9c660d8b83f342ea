// Errors of migration and store management.
import Foundation

/// Why a store cannot be migrated, moved, replaced or destroyed.
public enum StoreManagementError: Error, Equatable, Sendable {
    /// The store was written with another model, and the description does not ask for
    /// automatic migration: the store's location (or type) and the entities that differ.
    case incompatibleModel(store: String, entities: [String])
    /// None of the source models given wrote the store: the entities whose hashes match no
    /// source model.
    case noSourceModel(store: String, entities: [String])
    /// The change between two model versions cannot be inferred: the entity, the property
    /// (`nil` for the entity itself) and why.
    case cannotInferMapping(entity: String, property: String?, reason: String)
    /// The destination of a migration already exists.
    case destinationExists(String)
    /// The store type cannot do it.
    case unsupported(String)
    /// The store, or another store on the same file or with the same identifier (a copy of
    /// the file), is already added to the coordinator: its objects would come back twice from
    /// every fetch, and their IDs would name either store. The store's location.
    case storeAlreadyAdded(String)
}

extension StoreManagementError: LocalizedError, CustomStringConvertible {
    /// A sentence naming the store, entity or property.
    public var description: String {
        switch self {
        case .incompatibleModel(let store, let entities):
            return "\(store) was written with another version of the model (entities that differ: \(entities.joined(separator: ", "))); "
                + "add the source models and the options \(StoreDescription.migratesAutomaticallyOption) and \(StoreDescription.infersMappingAutomaticallyOption) to migrate it"
        case .noSourceModel(let store, let entities):
            return "none of the source models given is the model that wrote \(store) (entities without a matching version: "
                + "\(entities.joined(separator: ", "))): add the model version that wrote the store to the source models"
        case .cannotInferMapping(let entity, let property, let reason):
            return "the migration cannot be inferred: \(entity)\(property.map { ".\($0)" } ?? ""): \(reason)"
        case .destinationExists(let path): return "\(path) already exists"
        case .unsupported(let what): return what
        case .storeAlreadyAdded(let store):
            return "\(store) is already added to this coordinator (a store can be added once: its objects would come back twice from every fetch)"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
