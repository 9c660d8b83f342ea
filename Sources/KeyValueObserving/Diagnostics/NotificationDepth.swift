#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-thread count of notifications being delivered, for the recursion guard of
/// ``KeyValueObservingDiagnostics``.
///
/// Each thread's count lives in a heap cell found through a POSIX thread-specific key (one
/// `pthread_getspecific` per notified change); the cell is freed when the thread exits.
/// Thread safety: each thread touches only its own cell.
enum NotificationDepth {
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

    /// This thread's counter.
    @inline(__always)
    static func counter() -> UnsafeMutablePointer<Int> {
        let key = self.key
        if let cell = pthread_getspecific(key) { return cell.assumingMemoryBound(to: Int.self) }
        let cell = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        cell.initialize(to: 0)
        pthread_setspecific(key, cell)
        return cell
    }

    /// Enters one level of notification on this thread.
    ///
    /// - Returns: The counter to pass to ``leave(_:)``, or `nil` when the thread is already
    ///   ``KeyValueObservingDiagnostics/maximumNestingDepth`` levels deep (nothing entered).
    @inline(__always)
    static func enter() -> UnsafeMutablePointer<Int>? {
        let depth = counter()
        guard depth.pointee < KeyValueObservingDiagnostics.maximumNestingDepth else { return nil }
        depth.pointee += 1
        return depth
    }

    /// Leaves the level entered by ``enter()``.
    @inline(__always)
    static func leave(_ depth: UnsafeMutablePointer<Int>) {
        depth.pointee -= 1
    }
}
