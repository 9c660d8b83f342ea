#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Tells the thread sanitizer about `Mutex` critical sections.
///
/// On Linux the toolchain's `Mutex` synchronises through atomics inside the (uninstrumented)
/// Synchronization library, so `swift test --sanitize=thread` reports false races between
/// critical sections. When the sanitizer's runtime is loaded, its `__tsan_acquire` /
/// `__tsan_release` annotations are found by `dlsym` and called around each critical section;
/// otherwise this costs one load and branch.
@usableFromInline
package enum ThreadSanitizer {
    @usableFromInline
    package typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// The owner named for the critical sections of static tables.
    package static let staticOwner = StaticOwner()

    package final class StaticOwner: Sendable {}

    @usableFromInline
    package static let acquire: Annotation? = lookUp("__tsan_acquire")
    /// Whether the process runs under the thread sanitizer (whose instrumentation needs
    /// several times the stack of a normal build: stack-size tests scale by
    /// ``stackScale``).
    package static var isActive: Bool { acquire != nil }
    /// How much more stack instrumented code needs: 4 under the sanitizer, otherwise 1.
    package static var stackScale: Int { isActive ? 4 : 1 }
    @usableFromInline
    package static let release: Annotation? = lookUp("__tsan_release")

    /// Whether the annotations were looked up: 0 not yet, 1 no sanitizer, 2 sanitizer loaded.
    ///
    /// `acquire` and `release` are lazily initialised globals, so each read of them goes
    /// through `swift_once`; this atomic has a constant initial value, is initialised
    /// statically, and lets the hot paths (every tracked lock, every type-cache hit) skip the
    /// annotations with one relaxed load when no sanitizer runs.
    @usableFromInline
    package static let presence = Atomic<Int>(0)

    /// Announces an acquire of `address` to the sanitizer, if it runs.
    @inlinable @inline(__always)
    package static func announceAcquire(_ address: UnsafeMutableRawPointer?) {
        if presence.load(ordering: .relaxed) != 1 { announce(acquire, address) }
    }

    /// Announces a release of `address` to the sanitizer, if it runs.
    @inlinable @inline(__always)
    package static func announceRelease(_ address: UnsafeMutableRawPointer?) {
        if presence.load(ordering: .relaxed) != 1 { announce(release, address) }
    }

    @usableFromInline @inline(never)
    static func announce(_ annotation: Annotation?, _ address: UnsafeMutableRawPointer?) {
        guard let annotation else {
            presence.store(1, ordering: .relaxed)
            return
        }
        presence.store(2, ordering: .relaxed)
        annotation(address)
    }

    private static func lookUp(_ name: String) -> Annotation? {
        #if canImport(Glibc)
        let handle = UnsafeMutableRawPointer(bitPattern: 0)        // RTLD_DEFAULT
        #elseif canImport(Darwin)
        let handle = UnsafeMutableRawPointer(bitPattern: -2)       // RTLD_DEFAULT
        #else
        return nil
        #endif
        #if canImport(Glibc) || canImport(Darwin)
        guard let symbol = dlsym(handle, name) else { return nil }
        return unsafeBitCast(symbol, to: Annotation.self)
        #endif
    }
}

extension Mutex where Value: ~Copyable {
    /// `withLock`, announced to the thread sanitizer as a critical section of `owner`.
    ///
    /// - Parameters:
    ///   - owner: The object holding this mutex (its address names the critical section).
    ///   - body: The critical section.
    /// - Returns: What `body` returns.
    @inlinable @inline(__always)
    package borrowing func withTrackedLock<Result>(
        _ owner: AnyObject, _ body: (inout sending Value) throws -> sending Result
    ) rethrows -> sending Result {
        try withLock { value in
            let address = UnsafeMutableRawPointer(Unmanaged.passUnretained(owner).toOpaque())
            ThreadSanitizer.announceAcquire(address)
            defer { ThreadSanitizer.announceRelease(address) }
            return try body(&value)
        }
    }
}
