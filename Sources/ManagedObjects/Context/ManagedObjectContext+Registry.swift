// The registry's deferred entries: objects inserted without an ID, and the new objects of a
// fetch into an empty registry, are registered without an entry by ID until the registry is
// used.
import Foundation

extension ManagedObjectContext {
    /// Makes the registry entries of ``unindexedInserts``, each under the ID the object has
    /// now (a temporary one made for an object that still has none; its permanent one after a
    /// save). Every use of ``registered`` calls it first, so the registry is always whole when
    /// used.
    ///
    /// No entry can replace another: an object inserted without an ID gets a new temporary ID
    /// (unique in the process) or a permanent ID a store gave and the save checked against
    /// the registry (``assignPermanentIDsInPlace(_:answers:)``).
    ///
    /// - Complexity: O(*n*) in the objects waiting.
    package func indexUnindexedInserts() {
        let objects = unindexedInserts
        unindexedInserts = []
        unindexedInsertsHavePermanentIDs = false
        addEntries(for: objects)
    }

    /// Makes the registry entries of ``unindexedFetches``, each under the object's ID, in the
    /// order the objects were registered. Every use of ``registered`` calls it first.
    ///
    /// No entry can replace another: each object was made for a row of an ID no registered
    /// object had (``registerAwaitingEntry(_:)``), and a fetch's rows name each object once;
    /// a fetched object's ID is permanent and changes only through the registry.
    ///
    /// - Complexity: O(*n*) in the objects waiting.
    package func indexUnindexedFetches() {
        let objects = unindexedFetches
        unindexedFetches = []
        addEntries(for: objects)
    }

    /// Makes every waiting registry entry (``unindexedInserts`` and ``unindexedFetches``):
    /// what each use of ``registered`` does first.
    @inline(__always) package func indexWaitingEntries() {
        if !unindexedInserts.isEmpty { indexUnindexedInserts() }
        if !unindexedFetches.isEmpty { indexUnindexedFetches() }
    }

    /// Adds an entry under its ID for each of `objects`, the registry grown once for all.
    private func addEntries(for objects: [ManagedObject]) {
        registeredByID.reserveCapacity(registeredByID.count + objects.count)
        for object in objects { registeredByID[object.objectID] = object }
    }

    /// Whether every one of `objects`, the inserted objects a save gives permanent IDs, waits
    /// for its registry entry (the usual save of objects inserted since the last one, with no
    /// fetch or look-up between): they then take their IDs without any registry change.
    ///
    /// The waiting objects are inserted objects without a permanent ID (a removal from the
    /// registry, an object's deletion or rollback included, makes every waiting entry first;
    /// ``prepareUnindexedInsertsForSave()`` makes those that kept permanent IDs from an earlier
    /// save), each once: as many as `count` means all of them.
    package func allAwaitRegistryEntries(count: Int) -> Bool {
        count > 0 && unindexedInserts.count == count
    }

    /// Makes the waiting registry entries of objects that took permanent IDs in an earlier save,
    /// so that the waiting objects are exactly inserted objects without a permanent ID (see
    /// ``allAwaitRegistryEntries(count:)``), and a store's new IDs are checked against every
    /// permanent ID registered.
    package func prepareUnindexedInsertsForSave() {
        if unindexedInsertsHavePermanentIDs { indexUnindexedInserts() }
        // Fetched objects have permanent IDs: a store's new IDs are checked against them too.
        if !unindexedFetches.isEmpty { indexUnindexedFetches() }
    }
}
