// The store's metadata: Z_METADATA's binary property list and UUID column.
import Foundation
import ManagedObjects

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

    /// The metadata of a new store for `model`.
    package static func initial(for model: ManagedObjectModel) -> [String: any Sendable] {
        [
            typeKey: storeType,
            StoreMetadataKey.modelVersionHashes: model.entityVersionHashesByName,
            StoreMetadataKey.modelVersionHashesVersion: StoreMetadataKey.currentModelVersionHashesVersion,
            StoreMetadataKey.modelVersionIdentifiers: Array(model.versionIdentifiers).sorted(),
            frameworkVersionKey: frameworkVersion,
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

    /// The metadata in a binary property list, with Swift values (`String`, `Int`, `Double`,
    /// `Bool`, `Data`, `Date`, arrays and dictionaries of them).
    ///
    /// - Returns: The dictionary, or `nil` when the data is not a property-list dictionary.
    package static func decode(_ data: Data) -> [String: any Sendable]? {
        guard let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
              case let dictionary as [String: any Sendable] = sendable(plist, depth: 0) else { return nil }
        return dictionary
    }

    /// A property-list value as Swift values (deep); `nil` for anything else.
    private static func sendable(_ value: Any, depth: Int) -> (any Sendable)? {
        guard depth < 64 else { return nil }
        if let flag = value as? Bool, type(of: value) == Bool.self { return flag }
        switch value {
        case let string as String: return string
        case let data as Data: return data
        case let date as Date: return date
        case let number as NSNumber:
            let kind = String(cString: number.objCType)
            if kind == "d" || kind == "f" { return number.doubleValue }
            if kind == "c" || kind == "B" { return number.boolValue }
            return Int(truncatingIfNeeded: number.int64Value)
        case let integer as Int: return integer
        case let double as Double: return double
        case let array as [Any]: return array.compactMap { sendable($0, depth: depth + 1) }
        case let dictionary as [String: Any]:
            var result: [String: any Sendable] = [:]
            for (key, item) in dictionary { result[key] = sendable(item, depth: depth + 1) }
            return result
        default: return nil
        }
    }
}
