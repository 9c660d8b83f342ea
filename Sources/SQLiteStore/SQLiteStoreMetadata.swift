// The store's metadata: Z_METADATA's binary property list and UUID column.
import Foundation
import ManagedObjects
import ObjectGraphInternals

/// Reading and writing `Z_METADATA`: a binary property list, with the store UUID kept in the
/// `Z_UUID` column rather than the list (as Core Data does).
package enum SQLiteStoreMetadata {
    /// `NSStoreType` of this store.
    package static let storeType = "SQLite"
    /// The `NSPersistenceFrameworkVersion` written into new stores: the newest version seen in
    /// Apple's stores (iOS 17 / macOS 14), so that Core Data reads the file as one of its own.
    package static let frameworkVersion = 1344
    package static let uuidKey = "NSStoreUUID"
    package static let typeKey = "NSStoreType"
    package static let frameworkVersionKey = "NSPersistenceFrameworkVersion"
    package static let autoVacuumKey = "_NSAutoVacuumLevel"
    /// The digest of the version hashes that Core Data writes from framework version 977 on.
    package static let versionHashesDigestKey = "NSStoreModelVersionHashesDigest"

    /// `NSStoreModelVersionHashesDigest`: the base64 text of the SHA-512 digest of every
    /// entity's name (UTF-8) followed by its 32-byte version hash, in the order of the names
    /// (worked out from Apple's stores: it matches all of those in /work/shared/data/coredata
    /// that carry it).
    package static func versionHashesDigest(_ hashes: [String: Data]) -> String {
        var message: [UInt8] = []
        for name in hashes.keys.sorted(by: { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }) {
            message.append(contentsOf: name.utf8)
            message.append(contentsOf: hashes[name]!)
        }
        return Data(SHA512Digest.hash(message)).base64EncodedString()
    }

    /// The metadata of a new store for `model`.
    package static func initial(for model: ManagedObjectModel) -> [String: any Sendable] {
        [
            typeKey: storeType,
            StoreMetadataKey.modelVersionHashes: model.entityVersionHashesByName,
            StoreMetadataKey.modelVersionHashesVersion: StoreMetadataKey.currentModelVersionHashesVersion,
            StoreMetadataKey.modelVersionIdentifiers: Array(model.versionIdentifiers).sorted(),
            frameworkVersionKey: frameworkVersion,
            versionHashesDigestKey: versionHashesDigest(model.entityVersionHashesByName),
            autoVacuumKey: "2",
        ]
    }

    /// The binary property list of `metadata`, without the UUID (kept in `Z_UUID`).
    ///
    /// - Throws: An error when a value is not a property-list value.
    package static func encode(_ metadata: [String: any Sendable]) throws -> Data {
        var plist: [String: Any] = [:]
        for (key, value) in metadata where key != uuidKey { plist[key] = value }
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// The metadata in a property list (binary or XML), with Swift values (`String`, `Int`,
    /// `Double`, `Bool`, `Data`, `Date`, arrays and dictionaries of them; a set comes back as
    /// an array).
    ///
    /// The list is read by the package's own checked reader, never by
    /// `PropertyListSerialization`, which on Linux stops the process on some lists (one holding
    /// a set): `Z_PLIST` is input the program does not control.
    ///
    /// - Throws: ``PropertyListReadError`` naming the problem, also when the list is not a
    ///   dictionary.
    package static func decode(_ data: Data) throws(PropertyListReadError) -> [String: any Sendable] {
        guard case .dictionary(let dictionary) = try PropertyListValue.parse(data) else {
            throw PropertyListReadError("the property list is not a dictionary")
        }
        return dictionary.compactMapValues(\.sendableValue)
    }
}
