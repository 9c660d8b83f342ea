import Foundation
import ObjectGraphInternals
import Synchronization

/// A change whose notifications were not sent because a guard of
/// ``KeyValueObservingDiagnostics`` stopped them.
public struct KeyValueNestingLimitEvent: Sendable, Equatable {
    /// The guard that stopped a change's notifications.
    public enum Limit: Sendable, Hashable {
        /// The thread was already ``KeyValueObservingDiagnostics/maximumNestingDepth``
        /// notifications deep.
        case nestingDepth
        /// The outermost change being notified on the thread had already caused
        /// ``KeyValueObservingDiagnostics/maximumNotificationsPerChange`` notifications.
        case notificationsPerChange
    }

    /// The key that changed.
    public let key: String
    /// The type of the object whose key changed, as `String(reflecting:)` names it.
    public let objectType: String
    /// How many notifications were being delivered inside one another on the thread (for
    /// ``Limit/nestingDepth``, the limit itself).
    public let depth: Int
    /// Which guard stopped the notifications.
    public let limit: Limit
}

/// The guards against runaway change notifications.
///
/// A handler that changes the key it observes (directly, or through other observed keys) is
/// notified again from inside its own call. Apple's key-value observing recurses without a limit
/// until the stack overflows. ObjectGraph bounds two things per thread:
///
/// - **Depth**: the notifications being delivered inside one another (the `@Observed` setter,
///   `setValue(_:forKey:)`, `willChangeValue(forKey:)` and `didChangeValue(forKey:)` each count
///   one level while their observers run). A change made when ``maximumNestingDepth`` levels are
///   already running is stored but **not notified**.
/// - **Work**: the notifications caused by one outermost change, at any depth. Depth alone does
///   not bound the work: two observers that each change the key they observe (or one
///   ``KeyValueObservingOptions/prior`` observer that does) double the calls at each level, so a
///   depth of 1,000 would mean 2^1001 calls and `value = 1` would never return. Once an outermost
///   change has caused ``maximumNotificationsPerChange`` notifications, further changes made
///   before it returns are stored but not notified.
///
/// The nesting-limit handler is told about each change stored without notifying (by default the
/// first such change in the process is written to standard error), the event's
/// ``KeyValueNestingLimitEvent/limit`` says which guard stopped it, and
/// ``suppressedNotificationCount`` counts them.
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
    private static let workLimit = Atomic<Int>(100_000)
    private static let suppressed = Atomic<Int>(0)
    /// The handler, boxed: a closure read out of the mutex as a generic value would be wrapped
    /// in one more reabstraction thunk on each read (each report got slower than the last).
    private final class HandlerBox: Sendable {
        let call: @Sendable (KeyValueNestingLimitEvent) -> Void
        init(_ call: @escaping @Sendable (KeyValueNestingLimitEvent) -> Void) { self.call = call }
    }

    private static let handler = Mutex<HandlerBox?>(nil)
    private static let warned = Atomic<Bool>(false)

    /// How many notifications may be delivered inside one another on one thread, at least 1.
    /// Default 1,000.
    public static var maximumNestingDepth: Int {
        get { limit.load(ordering: .relaxed) }
        set { limit.store(Swift.max(newValue, 1), ordering: .relaxed) }
    }

    /// How many notifications one outermost change may cause on its thread, at any depth, at
    /// least 1. Default 100,000.
    ///
    /// Every notified change counts one (a will/did pair counts two), whatever the number of its
    /// observers. The count starts again with each change made while no notification is being
    /// delivered on the thread.
    public static var maximumNotificationsPerChange: Int {
        get { workLimit.load(ordering: .relaxed) }
        set { workLimit.store(Swift.max(newValue, 1), ordering: .relaxed) }
    }

    /// How many changes have been stored without notifying since the process started.
    public static var suppressedNotificationCount: Int { suppressed.load(ordering: .relaxed) }

    /// Sets the function told about each change stored without notifications, or `nil` to
    /// restore the default (a warning on standard error for the first one in the process).
    ///
    /// - Parameter newHandler: Called on the thread that made the change, with no lock held.
    public static func setNestingLimitHandler(_ newHandler: (@Sendable (KeyValueNestingLimitEvent) -> Void)?) {
        let box = newHandler.map(HandlerBox.init)
        handler.withTrackedLock(ThreadSanitizer.staticOwner) { $0 = box }
    }

    /// Reports a change of `key` of `object` stored without notifications, after
    /// ``NotificationDepth/enter()`` refused.
    static func reportSuppressed(key: String, object: AnyObject) {
        suppressed.add(1, ordering: .relaxed)
        let refusal = NotificationDepth.refusal()
        let event = KeyValueNestingLimitEvent(
            key: key, objectType: String(reflecting: type(of: object)),
            depth: NotificationDepth.counter().pointee.depth,
            limit: refusal == .depth ? .nestingDepth : .notificationsPerChange)
        if let current = handler.withTrackedLock(ThreadSanitizer.staticOwner, { $0 }) {
            current.call(event)
        } else if !warned.exchange(true, ordering: .relaxed) {
            let cause = event.limit == .nestingDepth
                ? "nested \(event.depth) deep on one thread"
                : "exceeded \(maximumNotificationsPerChange) notifications for one change"
            let message = "KeyValueObserving: notifications of '\(event.key)' on \(event.objectType) "
                + "\(cause) (an observer changing what it observes?); "
                + "the change was stored without notifying. See KeyValueObservingDiagnostics.\n"
            FileHandle.standardError.write(Data(message.utf8))
        }
    }
}
