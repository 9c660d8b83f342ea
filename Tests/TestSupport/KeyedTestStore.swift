// A test-only custom store written against the public store interface alone: string keys,
// faults from fetches, relationships given separately, the default in-memory evaluation.
import Foundation
import Synchronization
import ManagedObjects
import Predicates

/// A store keeping rows under string keys ("k1", "k2"…), counting what it is asked.
package final class KeyedTestStore: PersistentStore {
    package static let type = "KeyedTest"

    package struct Calls: Equatable {
        package var fetches = 0
        package var rows: [ManagedObjectID] = []
        package var relationships: [String] = []
    }

    private struct State {
        var identifier = ""
        var model: ManagedObjectModel?
        var metadata: [String: any Sendable] = [:]
        /// Attribute values and versions, by ID (no relationships).
        var rows: [ManagedObjectID: StoreRow] = [:]
        /// Relationships, by ID then name.
        var links: [ManagedObjectID: [String: [ManagedObjectID]]] = [:]
        var order: [ManagedObjectID] = []
        var nextKey = 0
        var calls = Calls()
    }
    private let state = Mutex(State())
    package let seed: String
    /// Whether fetches answer with rows (values included, whatever the request asks) instead
    /// of IDs and versions.
    package let answersWithRows: Bool

    package init(seed: String, answersWithRows: Bool = false) {
        self.seed = seed
        self.answersWithRows = answersWithRows
    }

    package var identifier: String { state.withLock { $0.identifier } }
    package var storeType: String { Self.type }
    package var metadata: [String: any Sendable] { state.withLock { $0.metadata } }
    package var calls: Calls { state.withLock { $0.calls } }
    package func resetCalls() { state.withLock { $0.calls = Calls() } }

    package func load(for model: ManagedObjectModel) throws {
        let identifier = StoreMetadata.reproducibleIdentifier(for: seed)
        state.withLock {
            $0.identifier = identifier
            $0.model = model
            $0.metadata = StoreMetadata.standard(storeType: Self.type, identifier: identifier, model: model)
        }
    }

    package func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        let (rows, model) = state.withLock { state -> ([StoreRow], ManagedObjectModel?) in
            state.calls.fetches += 1
            let rows = state.order.compactMap { id -> StoreRow? in
                guard var row = state.rows[id] else { return nil }
                row.relationships = state.links[id] ?? [:]
                return row
            }
            return (rows, state.model)
        }
        guard answersWithRows else { return try request.evaluate(over: rows, in: model!, returningFaults: true) }
        // A store that cannot skip values: every request answered as one for values.
        var valuesRequest = request
        valuesRequest.includesPropertyValues = true
        return try valuesRequest.evaluate(over: rows, in: model!)
    }

    package func row(for id: ManagedObjectID) throws -> StoreRow? {
        state.withLock { state in
            state.calls.rows.append(id)
            return state.rows[id]
        }
    }

    package func objectIDs(forRelationship relationship: String, of id: ManagedObjectID) throws -> [ManagedObjectID] {
        state.withLock { state in
            state.calls.relationships.append(relationship)
            return state.links[id]?[relationship] ?? []
        }
    }

    package func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        let keys = state.withLock { state in
            entityNames.map { _ in state.nextKey += 1; return "k\(state.nextKey)" }
        }
        return zip(entityNames, keys).map { newObjectID(forEntityNamed: $0, referenceObject: .string($1)) }
    }

    package func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] {
        try state.withLock { state in
            let conflicts = changes.conflicts { state.rows[$0]?.version }
            guard conflicts.isEmpty else { throw StoreSaveError.conflicts(conflicts) }
            var versions: [ManagedObjectID: Int64] = [:]
            for row in changes.inserted {
                state.order.append(row.objectID)
                state.rows[row.objectID] = StoreRow(objectID: row.objectID, version: 1, attributes: row.attributes)
                state.links[row.objectID] = row.relationships
                versions[row.objectID] = 1
            }
            for row in changes.updated {
                state.rows[row.objectID] = StoreRow(objectID: row.objectID, version: row.version + 1, attributes: row.attributes)
                state.links[row.objectID] = row.relationships
                versions[row.objectID] = row.version + 1
            }
            for (id, _) in changes.deleted {
                state.rows[id] = nil
                state.links[id] = nil
                state.order.removeAll { $0 == id }
            }
            return versions
        }
    }
}
