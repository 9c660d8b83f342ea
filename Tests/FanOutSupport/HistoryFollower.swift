// What an app does with remote-change notifications: on each, fetch the history after the last
// merged token and merge it into a context (on the context's queue).
import Foundation
import ManagedObjects
import Synchronization

/// The model of the fan-out tests and their child process: `Item` (`title`, `serial`).
package enum FanOutModel {
    package static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", properties: [.attribute("title", .string), .attribute("serial", .integer64)]),
        ])
    }
}

/// Keeps a private-queue context up to date with a coordinator's remote changes: each remote
/// change (another process's or coordinator's save) makes it fetch the history after the last
/// token it merged and merge those transactions into the context, on the context's queue.
///
/// - Important: Thread safety: `Sendable`; the merging runs in the context's `perform`.
package final class HistoryFollower: Sendable {
    /// The context, handed across threads only to call `perform`, which any thread may call.
    // @unchecked Sendable: the context is used only inside its own perform blocks.
    private struct ContextBox: @unchecked Sendable { let context: ManagedObjectContext }

    private let box: ContextBox
    private let token: Mutex<PersistentHistoryToken?>
    private let observation = Mutex<RemoteChangeObservation?>(nil)
    /// Called on the context's queue after each merge with the merged transactions.
    private let merged: @Sendable (ManagedObjectContext, [PersistentHistoryTransaction]) -> Void

    /// Starts following: merges every transaction after the coordinator's current token.
    ///
    /// - Parameters:
    ///   - context: A private-queue context of `coordinator`.
    ///   - coordinator: A coordinator with a history store that posts remote changes.
    ///   - merged: Called on the context's queue after each merge.
    package init(context: ManagedObjectContext, coordinator: PersistentStoreCoordinator,
                 merged: @escaping @Sendable (ManagedObjectContext, [PersistentHistoryTransaction]) -> Void = { _, _ in }) throws {
        box = ContextBox(context: context)
        token = Mutex(try coordinator.currentPersistentHistoryToken())
        self.merged = merged
        let made = coordinator.onRemoteChange { [weak self] _ in self?.catchUp() }
        observation.withLock { $0 = made }
    }

    /// Fetches what came after the last merged token and merges it, on the context's queue.
    package func catchUp() {
        box.context.perform { [self] context in
            let last = token.withLock { $0 }
            guard let transactions = try? context.execute(.fetchHistory(after: last)).transactions,
                  !transactions.isEmpty else { return }
            context.mergeChanges(fromHistory: transactions)
            token.withLock { $0 = transactions.last?.token ?? last }
            merged(context, transactions)
        }
    }

    /// Stops following.
    package func cancel() { observation.withLock { $0 }?.cancel() }
}
