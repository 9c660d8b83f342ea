import ObjectGraphInternals
import Synchronization

extension Mutex where Value: ~Copyable {
    /// `withTrackedLock(_:_:)` (a critical section announced to the thread sanitizer), compiled
    /// into this module so that each use is specialised and inlined.
    ///
    /// The shared `withTrackedLock` is a generic function of another module: every call of it
    /// from here went through its unspecialised form (a closure context and an indirect result),
    /// which was a sizeable part of registering and notifying. Same behaviour, same annotations.
    ///
    /// - Parameters:
    ///   - owner: The object holding this mutex (its address names the critical section).
    ///   - body: The critical section.
    /// - Returns: What `body` returns.
    @inline(__always)
    borrowing func withObservationLock<Result>(
        _ owner: AnyObject, _ body: (inout sending Value) throws -> sending Result
    ) rethrows -> sending Result {
        try withLock { value in
            let address = UnsafeMutableRawPointer(Unmanaged.passUnretained(owner).toOpaque())
            ThreadSanitizer.acquire?(address)
            defer { ThreadSanitizer.release?(address) }
            return try body(&value)
        }
    }
}
