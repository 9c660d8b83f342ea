// The coordinator's row cache: the last row read or saved of each object, with its age, so that
// a fault can be filled without asking the store (Apple: the coordinator's snapshots, which a
// context's `stalenessInterval` ages).
import Foundation
import ObjectGraphInternals
import Synchronization

/// The last known row of objects of a coordinator's stores, with the time each was read.
///
/// Fetches, fault fills and saves of every context on the coordinator put rows here; a fault
/// is filled from here when the row is younger than its context's staleness interval. Rows an
/// external writer (another coordinator, another process) changes stay as they were until they
/// age out, are refetched, or a remote merge drops them.
///
/// - Important: Thread safety: `Sendable`; every operation takes the cache's lock.
package final class RowCache: Sendable {
    /// A row, alone or as a place in the array of rows one fetch read (shared by all of that
    /// fetch's entries: caching a 200,000-row answer copies no row).
    private struct Entry {
        /// Boxed: an entry is two words and a time, not a whole row (the dictionary of
        /// 200,000 entries stays small, and a fetch's rows are not held twice).
        private enum Storage {
            case row(RowBox)
            case shared(SharedRows, Int)
        }
        private var storage: Storage
        var time: TimeInterval

        init(row: StoreRow, time: TimeInterval) {
            storage = .row(RowBox(row))
            self.time = time
        }

        init(_ rows: SharedRows, _ index: Int, time: TimeInterval) {
            storage = .shared(rows, index)
            self.time = time
        }

        var row: StoreRow {
            switch storage {
            case .row(let box): return box.row
            case .shared(let rows, let index): return rows.rows[index]
            }
        }

        /// Makes the row `saved`'s: an updated row whose values may differ from the cached
        /// row only in the slots `slots` (``StoreSaveChanges/updatedSlotMasks``), saved over
        /// version `expected`, now at `version`. Done in place when this entry holds a row of
        /// its own at `expected` in the same packed form (its values array written slot by slot:
        /// no row made, none freed); `false`, nothing changed, otherwise.
        ///
        /// `columns` are the saved row's; the rest of it is read where it lies (the save's row
        /// is not copied).
        mutating func update(with columns: StoreRowColumns, of saved: UnsafePointer<StoreRow>, slots: UInt64, expected: Int64,
                             version: Int64, time: TimeInterval) -> Bool {
            // Nothing of the cached row copied out first: its values array must stay uniquely
            // held to be written in place.
            guard case .row(let box) = storage, box.row.version == expected,
                  box.row.replaceSlotValues(slots, from: columns) else { return false }
            box.row.version = version
            if !(box.row.relationships.isEmpty && saved.pointee.relationships.isEmpty) {
                box.row.relationships = saved.pointee.relationships
            }
            self.time = time
            return true
        }
    }
    /// A row kept alone by its entry (a reference, so that a later save changes it in place).
    /// Reached only under the cache's lock (hence no dynamic exclusivity check); never handed
    /// out (its row is, as a value).
    private final class RowBox {
        @exclusivity(unchecked) var row: StoreRow
        init(_ row: StoreRow) { self.row = row }
    }
    /// The rows of one fetch, kept once for all their entries (immutable).
    private final class SharedRows: Sendable {
        let rows: [StoreRow]
        init(_ rows: [StoreRow]) { self.rows = rows }
    }
    private struct State {
        var entries: [ManagedObjectID: Entry] = [:]
        /// Fetch answers remembered but not yet put in ``entries``, oldest first, each with
        /// the time it was stored: they are entered (in order, with their own times) by the
        /// next operation that reads or changes the entries, so that a fetch whose rows are
        /// never looked up costs no dictionary entry per row. Entering them later gives
        /// exactly the entries that entering them at once would have.
        var pending: [(rows: SharedRows, time: TimeInterval)] = []
        /// The number of rows in ``pending``.
        var pendingCount = 0
        /// Added to the clock (tests age rows without sleeping).
        var clockOffset: TimeInterval = 0

        /// Puts the pending answers in the entries, as ``RowCache/store(_:)-([StoreRow])``
        /// did when they came.
        mutating func enterPending() {
            guard !pending.isEmpty else { return }
            for (shared, time) in pending {
                let rows = shared.rows
                if entries.count > RowCache.capacity { entries.removeAll(keepingCapacity: true) }
                entries.reserveCapacity(Swift.min(entries.count + rows.count, RowCache.capacity + 1))
                for index in rows.indices { entries[rows[index].objectID] = Entry(shared, index, time: time) }
            }
            pending.removeAll()
            pendingCount = 0
        }
    }
    private let state = Mutex(State())
    /// Past this many rows the cache starts again empty (a fault then reads its store: fresher,
    /// never wrong).
    package static let capacity = 200_000

    package init() {}

    private static func now(_ state: State) -> TimeInterval {
        ProcessInfo.processInfo.systemUptime + state.clockOffset
    }

    /// The cached row of `id` if it is younger than `interval` seconds (a negative interval:
    /// any age; 0: never).
    package func row(for id: ManagedObjectID, maximumAge interval: TimeInterval) -> StoreRow? {
        guard interval != 0 else { return nil }
        return state.withTrackedLock(self) { state -> StoreRow? in
            state.enterPending()
            guard let entry = state.entries[id] else { return nil }
            if interval > 0 && Self.now(state) - entry.time >= interval { return nil }
            return entry.row
        }
    }

    /// Remembers rows just read from a store.
    package func store<Rows: Sequence>(_ rows: Rows) where Rows.Element == StoreRow {
        state.withTrackedLock(self) { state in
            state.enterPending()
            let time = Self.now(state)
            if state.entries.count > Self.capacity { state.entries.removeAll(keepingCapacity: true) }
            // Room for the rows at once, not by doubling.
            state.entries.reserveCapacity(Swift.min(state.entries.count + rows.underestimatedCount, Self.capacity + 1))
            for row in rows { state.entries[row.objectID] = Entry(row: row, time: time) }
        }
    }

    /// Remembers the rows of a fetch, kept as the one array they came in (their entries
    /// share it; an entry replaced later leaves the array's other rows cached).
    ///
    /// The rows are entered by ID only when the cache is next read or changed otherwise (or
    /// when more than ``capacity`` rows wait), with the time of this call: the cache then
    /// answers exactly as if they had been entered now.
    ///
    /// - Complexity: O(1) amortized here; O(*n*) in the number of rows when they are entered,
    ///   with no copy of a row.
    package func store(_ rows: [StoreRow]) {
        guard rows.count > 1 else {
            store(rows[...])
            return
        }
        remember(SharedRows(rows))
    }

    /// Puts rows among the ``State/pending`` ones, with the time now.
    private func remember(_ shared: SharedRows) {
        state.withTrackedLock(self) { state in
            let time = Self.now(state)
            // At most `capacity` rows wait (besides these): enter older ones first.
            if state.pendingCount > 0 && state.pendingCount + shared.rows.count > Self.capacity { state.enterPending() }
            state.pending.append((shared, time))
            state.pendingCount += shared.rows.count
        }
    }

    /// Remembers the rows of a save, with their new versions, and forgets deleted rows.
    ///
    /// The new and the updated rows are taken out of `changes` (its `inserted` and `updated`
    /// are empty afterwards). The new rows are kept as one array that their entries share (as
    /// a fetch's rows are), their versions set in place: no saved row is copied. A save of new
    /// rows only enters them later, as ``store(_:)-([StoreRow])`` enters a fetch's rows (the
    /// cache answers the same).
    ///
    /// An updated row whose changed slots `changes` names (``StoreSaveChanges/updatedSlotMasks``,
    /// a row kept as slot values alone) is written into the cached row in place when the
    /// cache holds that object's row alone, at the version the save started from, in the same
    /// form: only the changed slots' values are copied, and the saved row (whose values array
    /// is the object's) is not kept, so the object's next change does not copy its array and
    /// no cached array is freed. Otherwise the saved row becomes the entry's own (a later save
    /// of the object then updates it in place). Other updated rows are kept as one shared array,
    /// like the new rows. Either way the cache holds the same values.
    ///
    /// - Complexity: O(*n*) in the number of rows.
    ///
    /// - Parameters:
    ///   - changes: The save.
    ///   - insertedVersion: The version of every new row, when the store gave them all one
    ///     (``UniformInsertVersionStore``); `nil`: each new row's is in `versions`.
    ///   - versions: The new version of each saved row (of each updated row, with
    ///     `insertedVersion`).
    ///   - updatedByOne: Every updated row's new version is its version plus one (`versions`
    ///     is then not read for them).
    package func store(saved changes: inout StoreSaveChanges, insertedVersion: Int64? = nil, versions: [ManagedObjectID: Int64],
                       updatedByOne: Bool = false) {
        // Moved out, not copied: the versions are then set in place.
        var inserted: [StoreRow] = []
        swap(&inserted, &changes.inserted)
        if let insertedVersion {
            // Written only where it differs: a store that keeps these rows itself may have set
            // it already, and its array is then shared (a write would copy it).
            for index in inserted.indices where inserted[index].version != insertedVersion {
                inserted[index].version = insertedVersion
            }
        } else {
            for index in inserted.indices {
                if let version = versions[inserted[index].objectID] { inserted[index].version = version }
            }
        }
        var updated: [StoreRow] = []
        swap(&updated, &changes.updated)
        let masks = changes.updatedSlotMasks.count == updated.count ? changes.updatedSlotMasks : []
        let sharedInserted = inserted.count > 1 ? SharedRows(inserted) : nil
        // A save of new rows alone (the usual insert-then-save): they wait to be entered as a
        // fetch's rows do (the same entries, with this time, when the cache is next used), so
        // that a save whose rows are never looked up makes no entry per row.
        if let sharedInserted, updated.isEmpty, changes.deleted.isEmpty {
            remember(sharedInserted)
            return
        }
        state.withTrackedLock(self) { state in
            state.enterPending()
            let time = Self.now(state)
            if state.entries.count > Self.capacity { state.entries.removeAll(keepingCapacity: true) }
            // Room for the rows at once, not by doubling.
            let written = inserted.count + updated.count
            state.entries.reserveCapacity(Swift.min(state.entries.count + written, Self.capacity + 1))
            // The new rows kept as one array their entries share (no row copied, no entry boxed).
            if let sharedInserted {
                for index in inserted.indices { state.entries[inserted[index].objectID] = Entry(sharedInserted, index, time: time) }
            } else {
                for row in inserted { state.entries[row.objectID] = Entry(row: row, time: time) }
            }
            // Updated rows whose changed slots are known: in place where the cache can, else
            // each an entry's own row (in place next time). Read through the buffer: no row
            // copied out.
            var unmasked: [StoreRow] = []
            updated.withUnsafeMutableBufferPointer { rows in
                for index in rows.indices {
                    let id = rows[index].objectID
                    let expected = rows[index].version
                    let version = updatedByOne ? expected + 1 : versions[id] ?? expected
                    let slots = masks.isEmpty ? .max : masks[index]
                    guard slots != .max else {
                        rows[index].version = version
                        unmasked.append(rows[index])
                        continue
                    }
                    if let columns = rows[index].columns, let position = state.entries.index(forKey: id),
                       state.entries.values[position].update(with: columns, of: UnsafePointer(rows.baseAddress! + index),
                                                             slots: slots, expected: expected, version: version, time: time) {
                        continue
                    }
                    rows[index].version = version
                    state.entries[id] = Entry(row: rows[index], time: time)
                }
            }
            if unmasked.count > 1 {
                let shared = SharedRows(unmasked)
                for index in unmasked.indices { state.entries[unmasked[index].objectID] = Entry(shared, index, time: time) }
            } else {
                for row in unmasked { state.entries[row.objectID] = Entry(row: row, time: time) }
            }
            for (id, _) in changes.deleted { state.entries[id] = nil }
        }
    }

    /// Forgets the rows of `ids` (a remote merge: the store has newer ones).
    package func remove<IDs: Sequence>(_ ids: IDs) where IDs.Element == ManagedObjectID {
        state.withTrackedLock(self) { state in
            state.enterPending()
            for id in ids { state.entries[id] = nil }
        }
    }

    /// Moves the cache's clock forward (tests).
    package func advanceClock(by seconds: TimeInterval) {
        state.withTrackedLock(self) { $0.clockOffset += seconds }
    }
}
