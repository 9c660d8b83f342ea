// The SQLite store takes the rows of saved objects packed in its own row shapes.
import Foundation
import ManagedObjects

extension SQLitePersistentStore: PackedRowStore {
    /// The shape of the entity's rows this store reads (`rowShape` of its schema), so that the
    /// writer binds a saved packed row by position; `nil` before the store is loaded, for an
    /// entity it does not have, or for one whose rows it reads as dictionaries.
    package func packedRowShape(forEntityNamed entityName: String) -> StoreRowShape? {
        state.withLock { $0.engine?.schema.entities[entityName]?.rowShape }
    }
}
