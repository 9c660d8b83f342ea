// A store that migrates its backing data in place, in one transaction of its own (a database
// server's store), instead of a copy built beside a file and renamed over it.
import Foundation

/// One step of a lightweight migration: the model that wrote the data, the next model and the
/// inferred mapping between them.
package struct MigrationStep: Sendable {
    package var source: ManagedObjectModel
    package var destination: ManagedObjectModel
    package var mapping: MappingModel
}

/// A store whose backing data cannot be copied beside itself and renamed (a database on a
/// server): ``PersistentStoreCoordinator/addStore(with:sourceModels:)`` hands it the inferred
/// steps, and it changes its schema and rows in one transaction.
package protocol TransactionallyMigratingStore: PersistentStore {
    /// Migrates the backing data, written with the first step's source model, through every
    /// step, in one transaction: after it the data is the last step's destination model's, and
    /// when it throws nothing changed.
    ///
    /// - Parameter steps: The inferred steps, oldest first (at least one).
    /// - Throws: The store's errors (the transaction rolled back).
    func migrate(through steps: [MigrationStep]) throws
}
