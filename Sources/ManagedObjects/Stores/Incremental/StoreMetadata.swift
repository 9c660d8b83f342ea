// Metadata a store writes: its type, its UUID and the version hashes of the model it holds.
import Foundation
import ObjectGraphInternals

/// Helpers for a store's metadata (Apple: `metadata` of `NSPersistentStore`, the dictionary an
/// incremental store fills in `loadMetadata()`).
///
/// ```swift
/// func load(for model: ManagedObjectModel) throws {
///     let id = StoreMetadata.reproducibleIdentifier(for: url.standardizedFileURL.path)
///     metadata = StoreMetadata.standard(storeType: "BugFile", identifier: id, model: model)
/// }
/// ```
public enum StoreMetadata {
    /// `"NSStoreType"`: the store type's name.
    public static let storeTypeKey = "NSStoreType"
    /// `"NSStoreUUID"`: the store's identifier.
    public static let storeUUIDKey = "NSStoreUUID"

    /// The metadata every store carries: its type, its identifier and the model's version
    /// hashes, hash algorithm version and version identifiers, under Core Data's keys.
    ///
    /// - Parameters:
    ///   - storeType: The store type's name.
    ///   - identifier: The store's UUID string.
    ///   - model: The model whose objects the store holds.
    /// - Returns: The metadata dictionary.
    /// - Complexity: O(*n*) in the number of entities.
    public static func standard(storeType: String, identifier: String, model: ManagedObjectModel) -> [String: any Sendable] {
        [
            storeTypeKey: storeType,
            storeUUIDKey: identifier,
            StoreMetadataKey.modelVersionHashes: model.entityVersionHashesByName,
            StoreMetadataKey.modelVersionHashesVersion: StoreMetadataKey.currentModelVersionHashesVersion,
            StoreMetadataKey.modelVersionIdentifiers: Array(model.versionIdentifiers).sorted(),
        ]
    }

    /// A UUID string that is the same for the same seed on every run and every machine: for a
    /// store whose backing data cannot hold its own UUID (a web service, a read-only file), so
    /// that object URIs stay valid across launches. Seed it with what names the backing data
    /// (a URL, a path, an account name).
    ///
    /// The UUID is made of the seed's SHA-256 digest (its first 16 bytes), marked as a
    /// version-8 (custom) UUID of the RFC 4122 variant.
    ///
    /// - Parameter seed: What names the backing data.
    /// - Returns: An uppercase UUID string.
    /// - Complexity: O(*n*) in the seed's length.
    public static func reproducibleIdentifier(for seed: String) -> String {
        var bytes = Array(SHA256Digest.hash(Array(seed.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80   // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80   // RFC 4122 variant
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return uuid.uuidString
    }
}
