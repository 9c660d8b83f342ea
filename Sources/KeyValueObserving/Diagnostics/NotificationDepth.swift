#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-thread counts of notifications, for the guards of ``KeyValueObservingDiagnostics``:
/// how many are being delivered inside one another (depth), and how many have been delivered
/// since the outermost one began (work).
///
/// Each thread's counts live in a heap cell found through a POSIX thread-specific key (one
/// `pthread_getspecific` per notified change); the cell is freed when the thread exits.
/// Thread safety: each thread touches only its own cell.
package enum NotificationDepth {
    /// One thread's counts.
    struct Counts {
        /// Notifications being delivered inside one another.
        var depth = 0
        /// Notifications entered since the outermost one began.
        var work = 0
    }

    /// Why ``enter()`` refused.
    enum Refusal {
        case depth
        case work
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Glibc)
        let status = pthread_key_create(&key) { cell in cell?.deallocate() }
        #else
        let status = pthread_key_create(&key) { cell in cell.deallocate() }
        #endif
        precondition(status == 0, "KeyValueObserving: no thread-specific key available (\(status))")
        return key
    }()

    /// This thread's counters.
    @inline(__always)
    static func counter() -> UnsafeMutablePointer<Counts> {
        let key = self.key
        if let cell = pthread_getspecific(key) { return cell.assumingMemoryBound(to: Counts.self) }
        let cell = UnsafeMutablePointer<Counts>.allocate(capacity: 1)
        cell.initialize(to: Counts())
        pthread_setspecific(key, cell)
        return cell
    }

    /// Enters one level of notification on this thread.
    ///
    /// - Returns: The counter to pass to ``leave(_:)``, or `nil` when the thread is already
    ///   ``KeyValueObservingDiagnostics/maximumNestingDepth`` levels deep or the outermost
    ///   change already caused ``KeyValueObservingDiagnostics/maximumNotificationsPerChange``
    ///   notifications (nothing entered; ``refusal()`` tells which).
    @inline(__always)
    static func enter() -> UnsafeMutablePointer<Counts>? {
        let counts = counter()
        if counts.pointee.depth == 0 { counts.pointee.work = 0 }
        guard counts.pointee.depth < KeyValueObservingDiagnostics.maximumNestingDepth,
              counts.pointee.work < KeyValueObservingDiagnostics.maximumNotificationsPerChange else { return nil }
        counts.pointee.depth += 1
        counts.pointee.work += 1
        return counts
    }

    /// Whether the calling thread is delivering no notification (depth 0). A change made here
    /// without the delivery machinery (a managed object's quiet change, which has no listener
    /// but its context) leaves the counts as a delivery would: the next outermost delivery
    /// starts the work count afresh, and no guard could have refused it.
    @inline(__always)
    package static var isIdle: Bool { counter().pointee.depth == 0 }

    /// Why the last ``enter()`` on this thread returned `nil`.
    static func refusal() -> Refusal {
        counter().pointee.depth >= KeyValueObservingDiagnostics.maximumNestingDepth ? .depth : .work
    }

    /// Leaves the level entered by ``enter()``.
    @inline(__always)
    static func leave(_ counts: UnsafeMutablePointer<Counts>) {
        counts.pointee.depth -= 1
    }
}
