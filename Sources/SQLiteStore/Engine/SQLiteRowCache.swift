// The row cache: one copy of recently read rows, shared by every context of a coordinator.
import Foundation
import ManagedObjects

/// Rows read to fill faults, kept by the store so that other contexts of the coordinator
/// filling the same faults do not read them again (Apple: the persistent store's row cache).
///
/// The cache is valid for one state of the file: it remembers SQLite's `PRAGMA data_version`,
/// which changes when another connection (another coordinator, another process) commits, and
/// empties itself when it has changed. This store's own saves remove the rows they write.
/// It holds at most ``capacity`` rows and starts again empty when full.
struct SQLiteRowCache {
    /// The most rows kept.
    static let capacity = 10_000

    private(set) var rows: [ManagedObjectID: StoreRow] = [:]
    private var dataVersion: Int64?

    /// Empties the cache when the file changed since the rows were read.
    mutating func validate(dataVersion current: Int64) {
        if dataVersion != current {
            rows.removeAll(keepingCapacity: true)
            dataVersion = current
        }
    }

    mutating func insert(_ loaded: [StoreRow]) {
        if rows.count + loaded.count > Self.capacity { rows.removeAll(keepingCapacity: true) }
        for row in loaded.prefix(Self.capacity) { rows[row.objectID] = row }
    }

    mutating func remove(_ ids: some Sequence<ManagedObjectID>) {
        guard !rows.isEmpty else { return }
        for id in ids { rows[id] = nil }
    }

    mutating func removeAll() { rows.removeAll() }
}

extension SQLiteStoreEngine {
    /// The rows of `ids`, from the row cache where it has them, the rest read in one query per
    /// entity and cached.
    mutating func cachedRows(for ids: [ManagedObjectID]) throws -> [StoreRow] {
        let version = try connection.scalar("PRAGMA data_version")?.integerValue ?? 0
        rowCache.validate(dataVersion: version)
        var found: [StoreRow] = []
        var missing: [ManagedObjectID] = []
        found.reserveCapacity(ids.count)
        for id in ids {
            if let row = rowCache.rows[id] { found.append(row) } else { missing.append(id) }
        }
        guard !missing.isEmpty else { return found }
        let loaded = try rows(for: missing)
        rowCache.insert(loaded)
        return found + loaded
    }
}
