// Confinement: a context and its objects are used on the thread that made the context.
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread a context belongs to.
package struct OwnerThread {
    private let thread = pthread_self()

    package init() {}

    /// Whether the calling thread is the owner.
    @inline(__always)
    package var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }
}

extension ManagedObjectContext {
    private static let confinementChecks = Atomic<Bool>(true)

    /// Whether contexts stop the process with a message naming the context and the operation
    /// when they (or their objects) are used on another thread than the one that made them
    /// (default `true`), in the manner of Apple's concurrency debugging flag
    /// (`-com.apple.CoreData.ConcurrencyDebug 1`). Swift 6's checking already refuses most
    /// such uses at compile time; this catches the rest (`@unchecked` wrappers, C callbacks).
    /// Turning it off saves a thread-identity check per change.
    public static var checksThreadConfinement: Bool {
        get { confinementChecks.load(ordering: .relaxed) }
        set { confinementChecks.store(newValue, ordering: .relaxed) }
    }

    /// Stops the process when the calling thread is not the context's.
    @inline(__always)
    package func checkConfinement(_ operation: StaticString) {
        if _slowPath(!ownerThread.isCurrent) && Self.checksThreadConfinement {
            confinementViolation(operation)
        }
    }

    @inline(never)
    private func confinementViolation(_ operation: StaticString) -> Never {
        let label = name.map { "'\($0)'" } ?? "\(ObjectIdentifier(self))"
        fatalError("ManagedObjectContext \(label): \(operation) on another thread than the one that made the context; "
                   + "pass object IDs between threads and use each context on its own thread")
    }
}
