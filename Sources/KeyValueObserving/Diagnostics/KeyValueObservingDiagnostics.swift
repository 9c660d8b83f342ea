import Foundation
import ObjectGraphInternals
import Synchronization

/// A change whose notifications were not sent because the thread was already that many
/// notifications deep: see ``KeyValueObservingDiagnostics``.
public struct KeyValueNestingLimitEvent: Sendable, Equatable {
    /// The key that changed.
    public let key: String
    /// The type of the object whose key changed, as `String(reflecting:)` names it.
    public let objectType: String
    /// How many notifications were already being delivered on the thread (the limit).
    public let depth: Int
}

/// The guard against unbounded recursion of change notifications.
///
/// A handler that changes the key it observes (directly, or through other observed keys) is
/// notified again from inside its own call. Apple's key-value observing recurses without a limit
/// until the stack overflows. ObjectGraph counts, per thread, the notifications being delivered
/// (the `@Observed` setter, `setValue(_:forKey:)` and `didChangeValue(forKey:)` each count one
/// level while their observers run). A change made when ``maximumNestingDepth`` levels are
/// already running is stored but **not notified**; the nesting-limit handler is told about it
/// (by default the first such change in the process is written to standard error) and
/// ``suppressedNotificationCount`` counts it.
///
/// ```swift
/// KeyValueObservingDiagnostics.setNestingLimitHandler { event in
///     assertionFailure("observer recursion on \(event.objectType).\(event.key)")
/// }
/// ```
///
/// Each nested level takes roughly 1–2 KB of stack (more in debug builds): the default limit of
/// 1,000 fits the 8 MB main thread and the default secondary threads on Linux; threads with
/// 512 KB stacks (Dispatch's worker threads on Apple platforms) need a lower limit.
///
/// Thread safety: every member is thread-safe. The counting costs one thread-local read per
/// notified change; changes that no one observes are not counted.
public enum KeyValueObservingDiagnostics {
    private static let limit = Atomic<Int>(1_000)
    private static let suppressed = Atomic<Int>(0)
    private static let handler = Mutex<(@Sendable (KeyValueNestingLimitEvent) -> Void)?>(nil)
    private static let warned = Atomic<Bool>(false)

    /// How many notifications may be delivered inside one another on one thread, at least 1.
    /// Default 1,000.
    public static var maximumNestingDepth: Int {
        get { limit.load(ordering: .relaxed) }
        set { limit.store(Swift.max(newValue, 1), ordering: .relaxed) }
    }

    /// How many changes have been stored without notifying since the process started.
    public static var suppressedNotificationCount: Int { suppressed.load(ordering: .relaxed) }

    /// Sets the function told about each change stored without notifications, or `nil` to
    /// restore the default (a warning on standard error for the first one in the process).
    ///
    /// - Parameter newHandler: Called on the thread that made the change, with no lock held.
    public static func setNestingLimitHandler(_ newHandler: (@Sendable (KeyValueNestingLimitEvent) -> Void)?) {
        handler.withTrackedLock(ThreadSanitizer.staticOwner) { $0 = newHandler }
    }

    /// Reports a change of `key` of `object` stored without notifications.
    static func reportSuppressed(key: String, object: AnyObject) {
        suppressed.add(1, ordering: .relaxed)
        let event = KeyValueNestingLimitEvent(key: key, objectType: String(reflecting: type(of: object)),
                                              depth: maximumNestingDepth)
        if let current = handler.withTrackedLock(ThreadSanitizer.staticOwner, { $0 }) {
            current(event)
        } else if !warned.exchange(true, ordering: .relaxed) {
            let message = "KeyValueObserving: notifications of '\(event.key)' on \(event.objectType) "
                + "nested \(event.depth) deep on one thread (an observer changing what it observes?); "
                + "the change was stored without notifying. See KeyValueObservingDiagnostics.\n"
            FileHandle.standardError.write(Data(message.utf8))
        }
    }
}
