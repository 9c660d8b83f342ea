// Batched fetches: IDs first, objects filled a batch at a time; prefetching related objects.
import Foundation
import Predicates

/// The results of a batched fetch: the matching objects' IDs, with objects made and filled a
/// batch at a time on first access (Apple: the array `fetch(_:)` returns for a request with a
/// `fetchBatchSize`).
///
/// Reading element `i` fills every fault of `i`'s batch with one store query (per entity);
/// the other batches stay IDs until read. At most two batches are kept: when a third is read,
/// the objects of the oldest that nothing else holds and that have no unsaved changes leave the
/// context (as Core Data's registry holds unchanged objects weakly), so walking a million rows
/// holds the IDs and two batches. Objects you keep stay registered, and reading their position
/// again gives the same object.
///
/// - Important: Thread safety: not `Sendable`; use it where its context is used.
public struct BatchedFetchResults: RandomAccessCollection {
    /// The matching objects' IDs, in the request's order (made on each call from a compact
    /// copy: integer keys when all are of one entity and store).
    public var objectIDs: [ManagedObjectID] { members.all }
    /// The IDs, 8 bytes each for one entity's integer keys.
    private let members: CompactObjectIDs
    /// Objects filled per store query: the request's batch size, or the number of results when
    /// that is smaller (or the request asked for no batches).
    public let batchSize: Int
    private let context: ManagedObjectContext
    private let loaded: LoadedBatches

    private final class LoadedBatches {
        var flags: [Bool]
        /// The loaded batches, oldest first.
        var order: [Int] = []
        init(count: Int) { flags = Array(repeating: false, count: count) }
    }

    /// The batches kept loaded.
    static let keptBatches = 2

    private func range(of batch: Int) -> Range<Int> {
        (batch * batchSize)..<Swift.min(members.count, (batch + 1) * batchSize)
    }

    /// The results; `batchSize` is clamped to 1...max(1, the number of IDs), so a size larger
    /// than the results (up to `Int.max`) is one batch and batch arithmetic cannot overflow.
    init(objectIDs: [ManagedObjectID], batchSize: Int, context: ManagedObjectContext) {
        members = CompactObjectIDs(objectIDs)
        self.batchSize = Swift.min(Swift.max(1, batchSize), Swift.max(1, objectIDs.count))
        self.context = context
        let (whole, rest) = objectIDs.count.quotientAndRemainder(dividingBy: self.batchSize)
        loaded = LoadedBatches(count: whole + (rest > 0 ? 1 : 0))
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { members.count }

    /// The object at `position`, its batch filled first when this is the batch's first access.
    ///
    /// - Complexity: O(1) for a loaded batch; one store query per entity of the batch otherwise.
    public subscript(position: Int) -> ManagedObject {
        let batch = position / batchSize
        if !loaded.flags[batch] {
            if loaded.order.count >= Self.keptBatches {
                let oldest = loaded.order.removeFirst()
                loaded.flags[oldest] = false
                context.releaseUnreferenced(members.ids(in: range(of: oldest)))
            }
            loaded.flags[batch] = true
            loaded.order.append(batch)
            context.fillFaults(members.ids(in: range(of: batch)))
        }
        return context.registeredOrFault(members[position])
    }
}

@available(*, unavailable)
extension BatchedFetchResults: Sendable {}

extension ManagedObjectContext {
    /// The objects matching a request as a batched collection (Apple: `fetch(_:)` with a
    /// `fetchBatchSize`): only the IDs are fetched now (in SQL where the store can); objects
    /// are made and filled ``EntityFetchRequest/fetchBatchSize`` at a time as they are read.
    ///
    /// - Parameter request: The request; a batch size of 0 fills everything on first access.
    /// - Returns: The results, in the request's order.
    /// - Throws: What ``fetch(_:)`` throws.
    /// - Complexity: One ID query, then one query per batch read (per entity).
    public func fetchBatched(_ request: EntityFetchRequest) throws -> BatchedFetchResults {
        let ids = try fetchObjectIDs(request)
        return BatchedFetchResults(objectIDs: ids, batchSize: request.fetchBatchSize > 0 ? request.fetchBatchSize : ids.count,
                                   context: self)
    }

    /// The registered object for an ID, or a new registered fault.
    package func registeredOrFault(_ id: ManagedObjectID) -> ManagedObject {
        if let object = registered[id] { return object }
        // The ID came from a store of this coordinator: its entity is in the model.
        return try! fault(for: id)
    }

    /// Fills the faults among the objects of `ids` (made as faults when not registered) with
    /// one ``PersistentStore/rows(for:)`` call per store.
    package func fillFaults(_ ids: some Collection<ManagedObjectID>) {
        enterConfinement("fillFaults")
        defer { exitConfinement() }
        var byStore: [String: [ManagedObjectID]] = [:]
        for id in ids {
            let object = registeredOrFault(id)
            if object.faultFlag, let store = id.storeIdentifier { byStore[store, default: []].append(id) }
        }
        for (identifier, faults) in byStore {
            guard let store = coordinator?.store(withIdentifier: identifier),
                  let rows = try? store.rows(for: faults) else { continue }
            for row in rows {
                if let object = registered[row.objectID], object.faultFlag { fill(object, from: row) }
            }
        }
    }

    /// Lets go of the registered objects of `ids` that have no unsaved changes and that nothing
    /// but the context holds (Core Data's registry holds such objects weakly).
    package func releaseUnreferenced(_ ids: some Collection<ManagedObjectID>) {
        enterConfinement("releaseUnreferenced")
        defer { exitConfinement() }
        for id in ids {
            guard var object = registered.removeValue(forKey: id) else { continue }
            if inserted.contains(object) || updated.contains(object) || deleted.contains(object)
                || !isKnownUniquelyReferenced(&object) {
                registered[id] = object
                continue
            }
            committedHolders.remove(object)
            eventHolders.remove(object)
            object.forgetChangeRecords()
            object.managedObjectContext = nil
            object.setOwnerObservationStorage(nil)
        }
    }

    /// Fills the related objects along each key path (`"stand"`, `"stand.owner"`,
    /// `"tags"`) that are faults, one store query per key path step (Apple:
    /// `relationshipKeyPathsForPrefetching`).
    package func prefetchRelationships(_ keyPaths: [String], of objects: [ManagedObject]) {
        for keyPath in keyPaths {
            var level = objects
            for key in keyPath.split(separator: ".").map(String.init) {
                var next: [ManagedObject] = []
                var seen = Set<ObjectIdentifier>()
                // To-many relationship faults of the whole level: one store query.
                fulfillRelationshipFaults(key, of: level)
                for object in level {
                    guard let slot = object.layout.slotByName[key], case .relationship = object.layout.properties[slot] else { continue }
                    let value = object.slotValue(slot)
                    let related: [ManagedObject]
                    if let one = value as? ManagedObject {
                        related = [one]
                    } else if let set = value as? Set<ManagedObject> {
                        related = Array(set)
                    } else {
                        related = value as? [ManagedObject] ?? []
                    }
                    for member in related where seen.insert(ObjectIdentifier(member)).inserted { next.append(member) }
                }
                fillFaults(next.map(\.objectID))
                level = next
            }
        }
    }
}
