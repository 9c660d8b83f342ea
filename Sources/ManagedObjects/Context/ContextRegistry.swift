// A registry of contexts that want to hear about saves (automatic merges), safe to use from any
// thread.
import Foundation
import ObjectGraphInternals
import Synchronization

/// A weak reference to a context that is handed between threads.
///
/// `@unchecked Sendable` because a context is not `Sendable`: the reference crosses threads only
/// to reach the context's ``ManagedObjectContext/perform(_:)``, which runs the work on the
/// context's own queue (or, for a context without a queue, where the context's confinement
/// check stops overlapping use), so the context is never used from two threads at once.
package struct ContextReference: @unchecked Sendable {
    package weak var context: ManagedObjectContext?

    package init(_ context: ManagedObjectContext) { self.context = context }
}

/// The contexts registered for automatic merges, by identity; released contexts drop out.
///
/// - Important: Thread safety: `Sendable`; the list takes a lock.
package final class ContextRegistry: Sendable {
    private let entries = Mutex<[ObjectIdentifier: ContextReference]>([:])

    package init() {}

    /// Adds a context (again: no change).
    package func add(_ context: ManagedObjectContext) {
        let reference = ContextReference(context)
        let key = ObjectIdentifier(context)
        entries.withTrackedLock(self) { $0[key] = reference }
    }

    /// Removes a context.
    package func remove(_ context: ManagedObjectContext) {
        let key = ObjectIdentifier(context)
        entries.withTrackedLock(self) { $0[key] = nil }
    }

    /// The live contexts other than `excluded`, dropping released ones.
    package func references(excluding excluded: ObjectIdentifier?) -> [ContextReference] {
        entries.withTrackedLock(self) { entries in
            entries = entries.filter { $0.value.context != nil }
            return entries.filter { $0.key != excluded }.map(\.value)
        }
    }
}
