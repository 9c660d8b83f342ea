// Recognising which model wrote a store: entity version hashes and the metadata check.
import Foundation

/// The keys of a persistent store's metadata dictionary that identify the model that wrote it
/// (Apple: `NSStoreModelVersionHashesKey`, `NSStoreModelVersionHashesVersionKey`,
/// `NSStoreModelVersionIdentifiersKey`). The raw strings are Core Data's, so metadata read from
/// an Apple-written store uses the same keys.
public enum StoreMetadataKey {
    /// Entity name → 32-byte version hash (`Data`) of every entity of the model that wrote
    /// the store (`"NSStoreModelVersionHashes"`).
    public static let modelVersionHashes = "NSStoreModelVersionHashes"
    /// The version of the hash algorithm, an integer (`"NSStoreModelVersionHashesVersion"`);
    /// see ``currentModelVersionHashesVersion``.
    public static let modelVersionHashesVersion = "NSStoreModelVersionHashesVersion"
    /// The model's version identifiers, an array of strings
    /// (`"NSStoreModelVersionIdentifiers"`).
    public static let modelVersionIdentifiers = "NSStoreModelVersionIdentifiers"
    /// The hash algorithm version this library computes and writes: 3, as every Core Data
    /// release since Mac OS X 10.5.
    public static let currentModelVersionHashesVersion = 3
}

extension ManagedObjectModel {
    /// The version hash of every entity, by entity name (Apple:
    /// `entityVersionHashesByName`). A store records this dictionary in its metadata under
    /// ``StoreMetadataKey/modelVersionHashes``; equal dictionaries mean the store's layout fits
    /// the model.
    ///
    /// - Complexity: O(*n*) in the number of entities (the hashes are computed when the
    ///   entities are set).
    /// - Important: Thread safety: safe from any thread.
    public var entityVersionHashesByName: [String: Data] {
        var result: [String: Data] = [:]
        for entity in entities { result[entity.name] = entity.versionHash }
        return result
    }

    /// Whether a store whose metadata is `metadata` can be opened with this model's
    /// configuration `name` without migration (Apple:
    /// `isConfiguration(withName:compatibleWithStoreMetadata:)`).
    ///
    /// The metadata's ``StoreMetadataKey/modelVersionHashes`` dictionary must hold every entity
    /// of the configuration with an equal hash. For `nil` (the default configuration: every
    /// entity) it must hold exactly the model's entities, as Core Data requires; for a named
    /// configuration other entities in the store are ignored (Core Data records the whole
    /// model's hashes even in a configuration's store). A hash algorithm version above 3 is
    /// incompatible; below 3 (stores from before Mac OS X 10.5) only the entity names are
    /// compared, as Core Data does; a missing version counts as 3.
    ///
    /// - Parameters:
    ///   - name: A configuration name, or `nil` for the default configuration.
    ///   - metadata: A store's metadata.
    /// - Returns: `true` when compatible; `false` otherwise, including for an unknown
    ///   configuration name and for metadata without version hashes.
    /// - Complexity: O(*n*) in the number of entities.
    public func isConfiguration(_ name: String?, compatibleWithStoreMetadata metadata: [String: Any]) -> Bool {
        guard let stored = Self.versionHashes(in: metadata),
              let members = entities(forConfiguration: name) else { return false }
        let version = Self.integer(metadata[StoreMetadataKey.modelVersionHashesVersion])
            ?? StoreMetadataKey.currentModelVersionHashesVersion
        if version > StoreMetadataKey.currentModelVersionHashesVersion { return false }
        if name == nil && Set(stored.keys) != Set(members.map(\.name)) { return false }
        for entity in members {
            guard let hash = stored[entity.name] else { return false }
            if version == StoreMetadataKey.currentModelVersionHashesVersion && hash != entity.versionHash {
                return false
            }
        }
        return true
    }

    /// The entity hashes of store metadata, accepting `[String: Data]` and dictionaries of
    /// `Any` (as a property list decoder returns them); `nil` when missing or malformed.
    private static func versionHashes(in metadata: [String: Any]) -> [String: Data]? {
        if let hashes = metadata[StoreMetadataKey.modelVersionHashes] as? [String: Data] { return hashes }
        guard let raw = metadata[StoreMetadataKey.modelVersionHashes] as? [String: Any] else { return nil }
        var hashes: [String: Data] = [:]
        for (key, value) in raw {
            if let data = value as? Data {
                hashes[key] = data
            } else if let bytes = value as? [UInt8] {
                hashes[key] = Data(bytes)
            } else {
                return nil
            }
        }
        return hashes
    }

    private static func integer(_ value: Any?) -> Int? {
        switch value {
        case let int as Int: return int
        case let number as NSNumber: return number.intValue
        case let string as String: return Int(string)
        default: return nil
        }
    }
}
