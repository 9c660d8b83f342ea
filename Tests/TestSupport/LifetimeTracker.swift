// Tracks objects, observations and tokens weakly, to find what a test leaked.
import Synchronization
import Testing

/// Keeps weak references to objects a test creates, then checks that all of them are gone.
///
/// ```swift
/// let tracker = LifetimeTracker()
/// do {
///     let account = tracker.track(Account(), "account")
///     let token = tracker.track(try account.observe("balance") { _, _ in }, "token")
///     _ = token
/// }
/// tracker.expectAllReleased()   // fails naming "account" or "token" if either survived
/// ```
///
/// Thread safety: thread-safe.
package final class LifetimeTracker: Sendable {
    /// A weak reference with its label.
    private final class Entry: @unchecked Sendable {
        // @unchecked: `label` is immutable and `object` is a `weak let`, whose loads are
        // atomic in the Swift runtime; the tracker never touches the object otherwise.
        let label: String
        weak let object: AnyObject?

        init(_ label: String, _ object: AnyObject) {
            self.label = label
            self.object = object
        }
    }

    private let entries = Mutex<[Entry]>([])

    package init() {}

    /// Starts tracking `object` under `label`, without keeping it alive.
    ///
    /// - Parameters:
    ///   - object: An object, an observation token, a recorder…
    ///   - label: How failures name it.
    /// - Returns: `object`, so the call can wrap its creation.
    @discardableResult
    package func track<T: AnyObject>(_ object: T, _ label: String) -> T {
        let entry = Entry(label, object)
        entries.withLock { $0.append(entry) }
        return object
    }

    /// The labels of the tracked objects that are still alive, in the order they were tracked.
    package var survivors: [String] {
        entries.withLock { entries in entries.filter { $0.object != nil }.map(\.label) }
    }

    /// The number of objects tracked so far.
    package var trackedCount: Int { entries.withLock { $0.count } }

    /// Records an issue naming every tracked object that is still alive.
    ///
    /// - Parameters:
    ///   - comment: Added to the failure, for example the case being tested.
    ///   - sourceLocation: Where the issue is reported.
    package func expectAllReleased(_ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let alive = survivors
        #expect(alive.isEmpty, "still alive: \(alive.joined(separator: ", "))\(comment.map { " (\($0))" } ?? "")",
                sourceLocation: sourceLocation)
    }
}
