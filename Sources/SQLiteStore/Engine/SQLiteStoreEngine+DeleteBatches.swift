// Saving: deleted rows removed several at a time, each still only at its expected version.
import Foundation
import ManagedObjects

extension SQLiteStoreEngine {
    /// The most rows one checked delete statement removes.
    static let deleteBatchSize = 64

    /// Deletes the rows of a save, each only when it is still at the version the context
    /// read: a run of rows of one entity at one version (up to ``deleteBatchSize``) goes in one
    /// `DELETE … WHERE Z_ENT = ? AND Z_OPT = ? AND Z_PK IN (…)`, which must remove every row of
    /// the run; then each row's join-table pairs are removed.
    ///
    /// - Returns: `false` at the first run that removes fewer rows than it names (a row moved
    ///   on or is gone: the caller rolls back and checks every version first).
    func writeCheckedDeletes(_ deleted: [(objectID: ManagedObjectID, version: Int64)], writers: EntityWriters) throws -> Bool {
        var start = 0
        var keys: [Int64] = []
        keys.reserveCapacity(Swift.min(deleted.count, Self.deleteBatchSize))
        while start < deleted.count {
            let (id, version) = deleted[start]
            let writer = try writers.writer(id.entityName, engine: self)
            keys.removeAll(keepingCapacity: true)
            keys.append(try key(of: id))
            var end = start + 1
            while end < deleted.count, end - start < Self.deleteBatchSize, deleted[end].version == version,
                  deleted[end].objectID.entityName == id.entityName {
                keys.append(try key(of: deleted[end].objectID))
                end += 1
            }
            let delete = try batchDelete(of: keys.count, writer: writer)
            delete.start()
            try delete.bind(integer: writer.number, at: 1)
            try delete.bind(integer: version, at: 2)
            for (offset, key) in keys.enumerated() { try delete.bind(integer: key, at: 3 + offset) }
            guard try delete.runBoundCountingChanges() == keys.count else { return false }
            if !writer.joinTableDeletes.isEmpty {
                for key in keys { try deleteJoinRows(of: key, writer: writer) }
            }
            start = end
        }
        return true
    }

    /// The checked delete of `count` rows of the writer's entity at one version.
    private func batchDelete(of count: Int, writer: EntityWriter) throws -> SQLiteStatement {
        if let made = writer.batchDeletes[count] { return made }
        let marks = Array(repeating: "?", count: count).joined(separator: ", ")
        let statement = try connection.statement("DELETE FROM \(writer.table) WHERE Z_ENT = ? AND Z_OPT = ? AND Z_PK IN (\(marks))")
        writer.batchDeletes[count] = statement
        return statement
    }
}
