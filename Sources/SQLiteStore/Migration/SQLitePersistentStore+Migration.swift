// What migration and store management need of the SQLite store: its metadata read without
// opening the store for writing, and removing its files.
import Foundation
import ManagedObjects

extension SQLitePersistentStore {
    /// The metadata in the file's `Z_METADATA` table, read through a read-only connection
    /// (no file is changed or created); `nil` when there is no file.
    ///
    /// - Throws: ``SQLiteStoreError`` when the file is not an SQLite store.
    public func savedMetadata() throws -> [String: any Sendable]? {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        func refuse(_ code: SQLiteStoreError.Code) -> SQLiteStoreError { SQLiteStoreError(code, path: path) }
        // Without a write-ahead log the file holds everything: opened as immutable, SQLite
        // creates no -wal or -shm file beside it (the store stays byte for byte as it was).
        let hasLog = FileManager.default.fileExists(atPath: path + "-wal")
        let connection = hasLog ? try SQLiteConnection(path: path, mode: .readOnly)
                                : try SQLiteConnection(path: URL(fileURLWithPath: path).absoluteString + "?immutable=1", mode: .readOnly, uri: true)
        guard let row = try connection.rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1").first, row.count == 2,
              case .blob(let plist) = row[1] else {
            throw refuse(.notAStore("Z_METADATA has no readable metadata"))
        }
        var metadata: [String: any Sendable]
        do {
            metadata = try SQLiteStoreMetadata.decode(plist)
        } catch {
            throw refuse(.notAStore("Z_METADATA.Z_PLIST cannot be read: \(error.reason)"))
        }
        if case .text(let identifier) = row[0] { metadata[SQLiteStoreMetadata.uuidKey] = identifier }
        return metadata
    }

    /// Removes the store file and its `-wal`, `-shm` and `-journal` companions (Apple:
    /// `destroyPersistentStore(at:type:options:)`). Remove the store from its coordinator
    /// first: a store still open keeps working on the removed file.
    ///
    /// - Throws: ``SQLiteStoreError`` when a file exists and cannot be removed.
    public func destroy() throws {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = url.path + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw SQLiteStoreError(.unsupported("the file cannot be removed (\(error.localizedDescription))"), path: path)
            }
        }
    }
}

/// A migration moves the key counters past the keys it keeps without taking keys.
extension SQLitePersistentStore: KeyCounterRaisingStore {}
