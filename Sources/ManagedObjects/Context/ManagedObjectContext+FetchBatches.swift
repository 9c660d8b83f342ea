// Batched plain fetches: `fetch(_:)` with a `fetchBatchSize` returns faults that fill a batch
// at a time, and only the batches touched last keep their values.
import Foundation

/// Object IDs in order, kept as integer keys (8 bytes each) when they are all of one entity
/// and store, as whole IDs otherwise.
struct CompactObjectIDs {
    private enum Storage {
        case keys(template: ManagedObjectID, [Int64])
        case ids([ManagedObjectID])
    }
    private let storage: Storage

    init(_ ids: some Collection<ManagedObjectID>) {
        if let first = ids.first, case .integer = first.referenceObject,
           ids.allSatisfy({ $0.entityName == first.entityName && $0.storeIdentifier == first.storeIdentifier }) {
            var keys: [Int64] = []
            keys.reserveCapacity(ids.count)
            for id in ids {
                if case .integer(let key) = id.referenceObject { keys.append(key) }
            }
            if keys.count == ids.count {
                storage = .keys(template: first, keys)
                return
            }
        }
        storage = .ids(Array(ids))
    }

    var count: Int {
        switch storage {
        case .keys(_, let keys): return keys.count
        case .ids(let ids): return ids.count
        }
    }

    subscript(position: Int) -> ManagedObjectID {
        switch storage {
        case .keys(let template, let keys): return template.withPrimaryKey(keys[position])
        case .ids(let ids): return ids[position]
        }
    }

    /// The IDs at `range`.
    func ids(in range: Range<Int>) -> [ManagedObjectID] { range.map { self[$0] } }

    /// Every ID, in order.
    var all: [ManagedObjectID] { ids(in: 0..<count) }
}

/// One batch of a plain fetch with a ``EntityFetchRequest/fetchBatchSize``: the IDs of its
/// objects, in the result's order. Each fault of the batch holds it; firing one fills every
/// fault of the batch with one store query.
///
/// - Important: Thread safety: not `Sendable`; used where its context is used.
package final class FetchBatch {
    private let members: CompactObjectIDs
    /// The batches of the same fetch.
    let group: FetchBatchGroup
    /// Whether the batch's values are loaded (it is among the group's kept batches).
    var isLoaded = false

    init(_ ids: some Collection<ManagedObjectID>, group: FetchBatchGroup) {
        self.group = group
        members = CompactObjectIDs(ids)
    }

    /// The members' IDs, in order.
    var ids: [ManagedObjectID] { members.all }
}

@available(*, unavailable)
extension FetchBatch: Sendable {}

/// The batches of one batched fetch: which keep their values, and the relationship key paths
/// to prefetch for each batch filled.
///
/// - Important: Thread safety: not `Sendable`; used where its context is used.
final class FetchBatchGroup {
    /// How many batches keep their values at once.
    static let keptBatches = 2

    private struct WeakBatch {
        weak var batch: FetchBatch?
    }
    /// The loaded batches, oldest first (weak: the objects hold their batches, the batches
    /// their group).
    private var loaded: [WeakBatch] = []
    let prefetchKeyPaths: [String]

    init(prefetchKeyPaths: [String]) { self.prefetchKeyPaths = prefetchKeyPaths }

    /// Marks `batch` loaded; returns the batch that stops being kept, if any.
    func load(_ batch: FetchBatch) -> FetchBatch? {
        loaded.removeAll { $0.batch == nil || $0.batch === batch }
        batch.isLoaded = true
        loaded.append(WeakBatch(batch: batch))
        guard loaded.count > Self.keptBatches, let oldest = loaded.removeFirst().batch else { return nil }
        oldest.isLoaded = false
        return oldest
    }
}

@available(*, unavailable)
extension FetchBatchGroup: Sendable {}

extension ManagedObjectContext {
    /// `fetch(_:)` with a batch size: the objects, those the store answered with IDs as faults
    /// in batches of `fetchBatchSize` (``FetchBatch``).
    func fetchInBatches(_ request: EntityFetchRequest) throws -> [ManagedObject] {
        let objects = try fetch(request, storeResultType: .objectIDs)
        let group = FetchBatchGroup(prefetchKeyPaths: request.relationshipKeyPathsForPrefetching)
        var start = objects.startIndex
        while start < objects.endIndex {
            let end = start + Swift.min(request.fetchBatchSize, objects.endIndex - start)
            let slice = objects[start..<end]
            start = end
            guard slice.contains(where: \.faultFlag) else { continue }
            let batch = FetchBatch(slice.lazy.map(\.objectID), group: group)
            for object in slice where object.faultFlag { object.fetchBatch = batch }
        }
        // Objects already loaded (unsaved changes, a predicate SQL could not decide) get their
        // related objects now; faults get them when their batch is filled.
        if !group.prefetchKeyPaths.isEmpty {
            prefetchRelationships(group.prefetchKeyPaths, of: objects.filter { !$0.faultFlag })
        }
        return objects
    }

    /// Fills the faults of `batch` (`object`, being fired, among them) with one
    /// ``PersistentStore/rows(for:)`` call, after turning the faults of the batch that stops
    /// being kept back into faults; `false` when the object's store cannot be asked or has no
    /// row for it (the fault then fills alone, or says why it cannot).
    func fillBatch(_ batch: FetchBatch, firing object: ManagedObject) -> Bool {
        guard parent == nil, let storeID = object.objectID.storeIdentifier,
              let store = coordinator?.store(withIdentifier: storeID) else { return false }
        if let evicted = batch.group.load(batch) { turnIntoFaults(evicted) }
        var faults = [object]
        var ids = [object.objectID]
        for id in batch.ids where id != object.objectID && id.storeIdentifier == storeID {
            guard let member = registered[id], member.faultFlag, member.fetchBatch === batch else { continue }
            faults.append(member)
            ids.append(id)
        }
        guard let rows = try? store.rows(for: ids) else { return false }
        var filledObject = false
        for row in rows {
            guard let member = registered[row.objectID], member === object || member.faultFlag else { continue }
            fill(member, from: row)
            if member === object { filledObject = true }
        }
        coordinator?.rowCache.store(rows)
        if !batch.group.prefetchKeyPaths.isEmpty { prefetchRelationships(batch.group.prefetchKeyPaths, of: faults) }
        return filledObject
    }

    /// Turns the loaded objects of a batch that has no unsaved changes back into faults (Apple:
    /// the batch-faulting array lets go of batches no longer touched), quietly: their values
    /// are the store's and load again on next access.
    private func turnIntoFaults(_ batch: FetchBatch) {
        for id in batch.ids {
            guard let member = registered[id], !member.faultFlag, member.fetchBatch === batch,
                  !inserted.contains(member), !updated.contains(member), !deleted.contains(member) else { continue }
            member.willTurnIntoFault()
            forgetCommittedValues(of: member)
            member.faultFlag = true
            member.clearSlotValues()
            member.didTurnIntoFault()
        }
    }
}
