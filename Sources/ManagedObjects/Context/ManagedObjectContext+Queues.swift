// Queues: private-queue and main-queue contexts, and the blocks that run work on them.
import Foundation

extension ManagedObjectContext {
    /// How a context runs its work (Apple: `NSManagedObjectContextConcurrencyType`).
    public enum ConcurrencyType: Sendable, Hashable {
        /// Used by one thread (or actor) at a time, wherever it was made; what
        /// ``ManagedObjectContext/init(coordinator:)`` and ``ManagedObjectContext/init(model:)``
        /// make (Apple: `confinementConcurrencyType`, deprecated there).
        case confinement
        /// Owns a serial queue; use it inside ``ManagedObjectContext/perform(_:)`` and
        /// ``ManagedObjectContext/performAndWait(_:)`` (Apple: `privateQueueConcurrencyType`).
        case privateQueue
        /// Lives on the main queue (the main actor): use it there directly, or from elsewhere
        /// through its perform blocks (Apple: `mainQueueConcurrencyType`).
        case mainQueue
    }

    /// When an awaited `perform(schedule:_:)` runs its block (Apple: `ScheduledTaskType`).
    public enum ScheduledTaskType: Sendable, Hashable {
        /// At once when the caller is already on the context's queue, else enqueued.
        case immediate
        /// Always after the work already on the context's queue.
        case enqueued
    }

    /// Creates a context with its own queue, or on the main queue, on a coordinator's stores
    /// (Apple: `init(concurrencyType:)` then `persistentStoreCoordinator`).
    ///
    /// ```swift
    /// let background = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    /// let ids = try await background.perform { context in
    ///     let stand = try context.insertNewObject(forEntityNamed: "Stand")
    ///     try context.save()
    ///     return stand.objectID
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - concurrencyType: ``ConcurrencyType/privateQueue`` or ``ConcurrencyType/mainQueue``
    ///     (``ConcurrencyType/confinement`` makes what ``init(coordinator:)`` makes).
    ///   - coordinator: The coordinator.
    public convenience init(concurrencyType: ConcurrencyType, coordinator: PersistentStoreCoordinator) {
        self.init(model: coordinator.model, coordinator: coordinator, parent: nil, concurrencyType: concurrencyType)
    }

    /// A description of the context's queue, for messages.
    package var queueDescription: String {
        switch concurrencyType {
        case .confinement: return "no queue: one thread at a time"
        case .mainQueue: return "the main queue"
        case .privateQueue: return "its private queue '\(privateQueue?.label ?? "")'"
        }
    }

    // MARK: Running blocks

    /// Runs a block on the context's queue and returns at once (Apple: `perform(_:)`).
    ///
    /// The block receives the context. It runs as one user event: ``processPendingChanges()``
    /// follows it. A context made with ``init(coordinator:)`` or ``init(model:)`` has no queue and
    /// runs the block at once, on the calling thread.
    ///
    /// - Parameter block: The work; it may use the context and its objects.
    /// - Important: Thread safety: callable from any thread.
    public func perform(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let hop = ContextHop(context: self)
        switch concurrencyType {
        case .confinement:
            runEntered { block(self); processPendingChanges() }
        case .privateQueue:
            privateQueue!.async { hop.context.runEntered { block(hop.context); hop.context.processPendingChanges() } }
        case .mainQueue:
            DispatchQueue.main.async { hop.context.runEntered { block(hop.context); hop.context.processPendingChanges() } }
        }
    }

    /// Runs a block on the context's queue and waits for its value or its error (Apple:
    /// `perform(schedule:_:)`).
    ///
    /// The caller suspends (it does not block a thread) while the block runs on the context's
    /// queue; the block runs as one user event (``processPendingChanges()`` follows it). The
    /// value must be `Sendable`: return object IDs, not objects.
    ///
    /// ```swift
    /// let ids: [ManagedObjectID] = try await background.perform { context in
    ///     try context.fetch(EntityFetchRequest(entityName: "Stand")).map(\.objectID)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - schedule: ``ScheduledTaskType/immediate`` (the default) runs the block at once when
    ///     the caller is already on the queue.
    ///   - block: The work; it receives the context.
    /// - Returns: The block's value.
    /// - Throws: The block's error.
    /// - Important: Thread safety: callable from any isolation; it runs in the caller's.
    nonisolated(nonsending)
    public func perform<Value: Sendable, Failure: Error>(
        schedule: ScheduledTaskType = .immediate,
        _ block: @escaping @Sendable (ManagedObjectContext) throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        if concurrencyType == .confinement || (schedule == .immediate && isOnOwnQueue) {
            return try runEntered { () throws(Failure) -> Value in
                let value = try block(self)
                processPendingChanges()
                return value
            }
        }
        let hop = ContextHop(context: self)
        let queue = privateQueue ?? DispatchQueue.main
        let result = await withCheckedContinuation(isolation: #isolation) { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            queue.async {
                let context = hop.context
                let result = context.runEntered { () -> Result<Value, Failure> in
                    let result = Result { () throws(Failure) -> Value in try block(context) }
                    context.processPendingChanges()
                    return result
                }
                continuation.resume(returning: result)
            }
        }
        return try result.get()
    }

    /// Runs a block on the context's queue and waits for it, blocking the calling thread
    /// (Apple: `performAndWait(_:)`).
    ///
    /// Re-entrant: called inside a block already running on this context (or on the main
    /// thread for a main-queue context), the block runs at once. Unlike ``perform(_:)``, it is not
    /// a user event: no ``processPendingChanges()`` follows.
    ///
    /// - Parameter block: The work.
    /// - Returns: The block's value.
    /// - Throws: The block's error.
    /// - Important: Thread safety: callable from any thread; waiting on a main-queue context
    ///   from a thread the main thread is waiting for deadlocks, as with `DispatchQueue.sync`.
    public func performAndWait<Value, Failure: Error>(_ block: () throws(Failure) -> Value) throws(Failure) -> Value {
        if concurrencyType == .confinement || isOnOwnQueue {
            return try runEntered(block)
        }
        let queue = privateQueue ?? DispatchQueue.main
        // A thread that holds the main queue keeps holding it while it waits for this queue:
        // the block (which runs on the waiting thread) may use a main-queue context inline
        // (as Apple's `performAndWait` runs on the caller's thread) instead of dispatching
        // synchronously onto the main queue it already holds (a deadlock libdispatch stops).
        let result = MainQueueCheck.keepingMainQueueHeld {
            queue.sync { runEntered { Result(catching: block) } }
        }
        return try result.get()
    }

    /// Whether the calling thread may run the context's work now without hopping: it is inside
    /// a block of the context, or on the main thread for a main-queue context.
    package var isOnOwnQueue: Bool {
        if confinement.isHeldByCurrentThread { return true }
        return concurrencyType == .mainQueue && MainQueueCheck.isRunningOnMainQueue()
    }

    /// Runs work as the occupant of the context (its queue's thread for now).
    package func runEntered<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        let entered = confinement.enterFromQueue()
        if !entered && Self.checksThreadConfinement {
            fatalError(confinementViolationMessage("a perform block"))
        }
        defer { if entered { confinement.exit() } }
        return try body()
    }
}

/// A context is not `Sendable`: it is used on its queue, and object IDs travel instead (Swift 6
/// then refuses to capture a context in a `@Sendable` block or return it from `perform`).
@available(*, unavailable, message: "use a context inside its perform blocks and pass ManagedObjectIDs between queues")
extension ManagedObjectContext: Sendable {}

/// A context on its way to its own queue.
///
/// `@unchecked Sendable` because a context is not `Sendable`: the hop carries the context only to
/// the block that runs on the context's own queue, and that block enters the context's
/// confinement guard, which stops the process if any other thread uses the context meanwhile.
struct ContextHop: @unchecked Sendable {
    let context: ManagedObjectContext
}

/// Tells whether the current code runs on the main dispatch queue, which runs the main actor's
/// jobs and a main-queue context's blocks: a value set on the queue is visible to every block it
/// runs, on whatever thread drains it (on Linux not always the main thread).
package enum MainQueueCheck {
    private static let key = DispatchSpecificKey<UInt8>()
    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return true
    }()

    /// The threads that hold the main queue while they wait synchronously for another queue
    /// (see ``keepingMainQueueHeld(_:)``): a thread-local mark.
    private static let heldKey = "ObjectGraph.MainQueueCheck.held"

    /// Whether the calling code runs on the main queue, or on a thread that holds it while it
    /// waits for another queue's `performAndWait` block.
    package static func isRunningOnMainQueue() -> Bool {
        guard marked else { return false }
        if DispatchQueue.getSpecific(key: key) == 1 { return true }
        return Thread.current.threadDictionary[heldKey] != nil
    }

    /// Runs `body` (which waits synchronously for another queue, running its block on this
    /// thread) with this thread marked as still holding the main queue when it does.
    package static func keepingMainQueueHeld<Value>(_ body: () -> Value) -> Value {
        guard isRunningOnMainQueue() else { return body() }
        let dictionary = Thread.current.threadDictionary
        let outer = dictionary[heldKey]
        dictionary[heldKey] = true
        defer { dictionary[heldKey] = outer }
        return body()
    }
}
