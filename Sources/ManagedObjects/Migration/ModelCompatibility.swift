// Whether a store's metadata was written by a model: its entities' version hashes.
import Foundation

/// Compares a model with the version hashes in a store's metadata.
enum ModelCompatibility {
    /// The entities whose version hashes differ between the model and the metadata, sorted:
    /// in the model only, in the store only, or with another hash. Empty when they match (a
    /// store without hashes in its metadata differs in every entity).
    static func differingEntities(of model: ManagedObjectModel, metadata: [String: any Sendable]) -> [String] {
        let modelHashes = model.entityVersionHashesByName
        let stored = storedHashes(metadata)
        var differing = Set<String>()
        for (name, hash) in modelHashes where stored[name] != hash { differing.insert(name) }
        for name in stored.keys where modelHashes[name] == nil { differing.insert(name) }
        return differing.sorted()
    }

    /// The version hashes of a store's metadata, whatever dictionary type holds them.
    static func storedHashes(_ metadata: [String: any Sendable]) -> [String: Data] {
        if let hashes = metadata[StoreMetadataKey.modelVersionHashes] as? [String: Data] { return hashes }
        let loose = metadata[StoreMetadataKey.modelVersionHashes] as? [String: any Sendable] ?? [:]
        return loose.compactMapValues { $0 as? Data }
    }
}

extension ManagedObjectModel {
    /// Whether a store with this metadata holds objects of exactly this model's entities
    /// (Apple: `isConfiguration(withName:compatibleWithStoreMetadata:)`, for every entity).
    ///
    /// - Parameter metadata: A store's metadata.
    /// - Returns: `true` when every entity's version hash matches.
    public func isCompatible(withStoreMetadata metadata: [String: any Sendable]) -> Bool {
        ModelCompatibility.differingEntities(of: self, metadata: metadata).isEmpty
    }
}
