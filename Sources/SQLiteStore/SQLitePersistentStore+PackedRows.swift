// The SQLite store takes the rows of saved objects packed in its own row shapes.
import Foundation
import ManagedObjects
import ObjectGraphInternals

extension SQLitePersistentStore: PackedRowStore {
    /// The shape of the entity's rows this store reads (`rowShape` of its schema), so that the
    /// writer binds a saved packed row by position; `nil` before the store is loaded, for an
    /// entity it does not have, or for one whose rows it reads as dictionaries.
    package func packedRowShape(forEntityNamed entityName: String) -> StoreRowShape? {
        state.withTrackedLock(self) { $0.engine?.schema.entities[entityName]?.rowShape }
    }
}

extension SQLitePersistentStore: UniformInsertVersionStore {
    /// ``save(_:)``, with the rows' new versions implied rather than listed: every new row
    /// gets `Z_OPT` 1 and every updated row its version plus one, so a saving context and the
    /// row cache set them without a dictionary entry and a look-up per row.
    ///
    /// - Returns: The versions (``SQLiteStoreEngine/savedVersions``).
    /// - Throws: What ``save(_:)`` throws.
    package func saveReportingVersions(_ changes: StoreSaveChanges) throws -> SavedRowVersions {
        let path = url.path
        let transaction = try state.withTrackedLock(self) { state throws -> Int64? in
            guard var engine = state.engine.take() else { throw SQLiteStoreError(.notLoaded, path: path) }
            defer { state.engine = engine }
            engine.rowCache.remove(changes.updated.lazy.map(\.objectID))
            engine.rowCache.remove(changes.deleted.lazy.map(\.objectID))
            guard let history = state.history else {
                try engine.save(changes)
                return nil
            }
            return try engine.saveRecordingHistory(changes, layout: history)
        }
        if let transaction { announceTransaction(transaction) }
        return SQLiteStoreEngine.savedVersions
    }
}
