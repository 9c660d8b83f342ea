// The shared part of object IDs: entity, store and kind of key, one object for many IDs.
import Foundation
import ObjectGraphInternals
import Synchronization

/// What the IDs of one entity in one store have in common (their entity name, store identifier
/// and kind of key), held once and referenced by every such ID; or, for an ID whose key is a
/// string or a temporary UUID made by another process, that ID's whole identity.
///
/// An ID is then two words: this reference and an integer key. Copying one retains one object,
/// and comparing two IDs of one scope compares a reference and an integer.
///
/// - Important: Thread safety: immutable, `Sendable`.
package final class ManagedObjectIDScope: Sendable {
    /// How an ID of this scope holds its key.
    package enum Form: Sendable, Equatable {
        /// `.integer(key)` with the ID's `key`.
        case integer
        /// `.temporary(uuid)` of a UUID made by this process: the ID's `key` is the UUID's
        /// counter half (see `TemporaryIDs`).
        case localTemporary
        /// Any other reference, held here (the ID's `key` is 0): a string key, or a temporary
        /// UUID made by another process.
        case other(ManagedObjectID.ReferenceObject)
    }

    package let entityName: String
    package let storeIdentifier: String?
    package let form: Form
    /// The entity name's hash, computed once (IDs are dictionary keys everywhere).
    package let entityNameHash: Int
    /// Whether the form is ``Form/other(_:)`` (the reference is held here), and whether the
    /// IDs are temporary: answered once, so that hashing an ID or asking whether it is
    /// temporary reads a flag rather than matching the form (and copying its reference).
    package let holdsReference: Bool
    package let isTemporary: Bool

    fileprivate init(entityName: String, storeIdentifier: String?, form: Form) {
        self.entityName = entityName
        self.storeIdentifier = storeIdentifier
        self.form = form
        entityNameHash = entityName.hashValue
        switch form {
        case .integer:
            (holdsReference, isTemporary) = (false, false)
        case .localTemporary:
            (holdsReference, isTemporary) = (false, true)
        case .other(let reference):
            if case .temporary = reference { (holdsReference, isTemporary) = (true, true) } else { (holdsReference, isTemporary) = (true, false) }
        }
    }

    /// The scope of integer keys (or of this process's temporary IDs) of an entity in a store:
    /// a recently used one when there is one, so that the IDs of one store and entity mostly
    /// share one object however they were made.
    ///
    /// - Complexity: O(1) average; takes a process-wide lock.
    package static func shared(entityName: String, storeIdentifier: String?, form: Form) -> ManagedObjectIDScope {
        SharedScopes.instance.scope(entityName: entityName, storeIdentifier: storeIdentifier, form: form)
    }

    /// A scope of its own for an ID with reference `reference` (a string key or a temporary
    /// UUID of another process).
    package static func single(entityName: String, storeIdentifier: String?,
                               reference: ManagedObjectID.ReferenceObject) -> ManagedObjectIDScope {
        ManagedObjectIDScope(entityName: entityName, storeIdentifier: storeIdentifier, form: .other(reference))
    }

    /// Whether the IDs of both scopes with equal keys name the same object: same form (and
    /// reference), entity and store. Scopes are shared only as an optimisation, so two
    /// different scope objects may still stand for the same entity and store.
    @inline(never)
    package func sameObjects(as other: ManagedObjectIDScope) -> Bool {
        entityNameHash == other.entityNameHash && form == other.form
            && entityName == other.entityName && storeIdentifier == other.storeIdentifier
    }
}

/// The scopes handed out by ``ManagedObjectIDScope/shared(entityName:storeIdentifier:form:)``:
/// the last one asked for, and a bounded table of recent ones (emptied when full, so that a
/// process opening store after store keeps no scope of a store it no longer uses beyond the
/// IDs that reference it).
///
/// The table is only an optimisation: ID equality compares the names when two scopes differ.
private final class SharedScopes: Sendable {
    static let instance = SharedScopes()

    private struct Key: Hashable {
        let entityName: String
        let storeIdentifier: String?
        let isTemporary: Bool
    }

    private struct State {
        var last: ManagedObjectIDScope?
        var table: [Key: ManagedObjectIDScope] = [:]
    }

    /// The most scopes the table keeps before it starts again.
    private static let capacity = 1024
    private let state = Mutex(State())

    func scope(entityName: String, storeIdentifier: String?,
               form: ManagedObjectIDScope.Form) -> ManagedObjectIDScope {
        state.withTrackedLock(self) { state in
            if let last = state.last, last.form == form, last.entityName == entityName,
               last.storeIdentifier == storeIdentifier {
                return last
            }
            let key = Key(entityName: entityName, storeIdentifier: storeIdentifier, isTemporary: form == .localTemporary)
            if let known = state.table[key] {
                state.last = known
                return known
            }
            if state.table.count >= Self.capacity { state.table.removeAll() }
            let made = ManagedObjectIDScope(entityName: entityName, storeIdentifier: storeIdentifier, form: form)
            state.table[key] = made
            state.last = made
            return made
        }
    }
}

/// Temporary IDs: a random per-process half and a counter, so that making one costs an atomic
/// increment rather than reading the system's random source (as `UUID()` does on Linux). An ID
/// keeps only the counter; its UUID is made when asked for.
enum TemporaryIDs {
    private static let processHalf: UInt64 = UInt64.random(in: .min ... .max)
    private static let counter = Atomic<UInt64>(0)

    /// The next counter value (as the bits of an `Int64`).
    static func next() -> Int64 {
        Int64(bitPattern: counter.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    /// The UUID of counter value `count`.
    static func uuid(_ count: Int64) -> UUID {
        let high = processHalf, low = UInt64(bitPattern: count)
        return UUID(uuid: (UInt8(truncatingIfNeeded: high >> 56), UInt8(truncatingIfNeeded: high >> 48),
                           UInt8(truncatingIfNeeded: high >> 40), UInt8(truncatingIfNeeded: high >> 32),
                           UInt8(truncatingIfNeeded: high >> 24), UInt8(truncatingIfNeeded: high >> 16),
                           UInt8(truncatingIfNeeded: high >> 8), UInt8(truncatingIfNeeded: high),
                           UInt8(truncatingIfNeeded: low >> 56), UInt8(truncatingIfNeeded: low >> 48),
                           UInt8(truncatingIfNeeded: low >> 40), UInt8(truncatingIfNeeded: low >> 32),
                           UInt8(truncatingIfNeeded: low >> 24), UInt8(truncatingIfNeeded: low >> 16),
                           UInt8(truncatingIfNeeded: low >> 8), UInt8(truncatingIfNeeded: low)))
    }

    /// The counter value of `uuid` when this process made it, else `nil`.
    static func count(of uuid: UUID) -> Int64? {
        let bytes = uuid.uuid
        let high = [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5, bytes.6, bytes.7]
            .reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard high == processHalf else { return nil }
        let low = [bytes.8, bytes.9, bytes.10, bytes.11, bytes.12, bytes.13, bytes.14, bytes.15]
            .reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int64(bitPattern: low)
    }
}
