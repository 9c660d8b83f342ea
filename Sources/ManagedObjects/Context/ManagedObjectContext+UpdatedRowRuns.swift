// Saving: the updated rows of a run of objects of one store, gathered before they join the
// store's save.
import Foundation

extension ManagedObjectContext {
    /// The rows, changed-slot masks, changed names and objects of a run of updated objects
    /// saved to one store, in save order: added to the store's ``StoreSaveChanges`` when the
    /// run ends, at once, instead of one dictionary look-up of the store's save (and one of its
    /// object list) per object.
    struct UpdatedRowRun {
        /// The store of the run; `nil` before the first object.
        private(set) var store: (any PersistentStore)?
        private var rows: [StoreRow] = []
        private var masks: [UInt64] = []
        private var names: [ManagedObjectID: Set<String>] = [:]
        private(set) var objects: [ManagedObject] = []

        /// Begins a run of `store`'s objects (the run holds nothing from an earlier run: each
        /// ends with ``moveRows(into:)`` and ``moveObjects(into:)``). The first run makes room
        /// for `expected` objects at once; later ones (objects of several stores interleaved)
        /// grow as they go, so that short runs do not each allocate room for every object.
        mutating func start(_ store: any PersistentStore, expecting expected: Int) {
            if self.store == nil {
                rows.reserveCapacity(expected)
                masks.reserveCapacity(expected)
                objects.reserveCapacity(expected)
            }
            self.store = store
        }

        /// Adds an object's row, its changed-slot mask and (for a store that records them)
        /// its changed property names.
        mutating func append(_ row: consuming StoreRow, slots: UInt64, names: Set<String>?, object: ManagedObject) {
            if let names { self.names[row.objectID] = names }
            rows.append(row)
            masks.append(slots)
            objects.append(object)
        }

        /// Adds the run's rows, masks and names to `changes` (taken without a copy into a
        /// save that has no updated rows yet), leaving the run without them.
        mutating func moveRows(into changes: inout StoreSaveChanges) {
            changes.updated.append(taking: &rows)
            changes.updatedSlotMasks.append(taking: &masks)
            if !names.isEmpty {
                changes.updatedPropertyNames.merge(names) { _, new in new }
                names = [:]
            }
        }

        /// Adds the run's objects to `list` (taken without a copy into an empty one), leaving
        /// the run without them.
        mutating func moveObjects(into list: inout [ManagedObject]) {
            list.append(taking: &objects)
        }
    }
}

extension Array {
    /// Appends `other`'s elements and leaves `other` empty: an empty array takes `other`'s
    /// storage without a copy.
    mutating func append(taking other: inout [Element]) {
        if isEmpty { swap(&self, &other) } else { self += other }
        other = []
    }
}
