// Confinement: a context and its objects are used by one thread at a time.
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which thread is inside one of a context's operations, if any.
///
/// Swift 6 code moves a context between threads legitimately: an actor's (or the main actor's)
/// jobs run on whichever thread the executor picks, one at a time. So the check is not "the
/// thread that made the context" but "no two threads at once": a thread that enters an
/// operation while another thread is inside one is a data race, and stops the process.
package final class ConfinementGuard {
    /// The thread inside an operation (its `pthread_self`), or 0.
    private let occupant = Atomic<UInt>(0)
    /// How deeply the occupant has entered (operations call each other); touched by the
    /// occupant only.
    private var depth = 0

    package init() {}

    @inline(__always)
    private static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// Enters an operation; `false` when another thread is inside one.
    @inline(__always)
    package func enter() -> Bool {
        let me = Self.currentThread
        if occupant.load(ordering: .acquiring) == me {
            depth += 1
            return true
        }
        guard occupant.compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing).exchanged else { return false }
        depth = 1
        return true
    }

    /// Leaves an operation entered with ``enter()``.
    @inline(__always)
    package func exit() {
        guard depth > 0 else { return }   // a did-change whose will-change came before the sink
        depth -= 1
        if depth == 0 { occupant.store(0, ordering: .releasing) }
    }

    /// Whether the calling thread may use the context now: no other thread is inside an
    /// operation.
    @inline(__always)
    package var isFree: Bool {
        let current = occupant.load(ordering: .acquiring)
        return current == 0 || current == Self.currentThread
    }
}

extension ManagedObjectContext {
    private static let confinementChecks = Atomic<Bool>(true)

    /// Whether contexts stop the process with a message naming the context and the operation
    /// when two threads use a context (or its objects) at the same time (default `true`), in
    /// the manner of Apple's concurrency debugging flag (`-com.apple.CoreData.ConcurrencyDebug 1`).
    ///
    /// A context may move between threads as Swift 6 moves an actor's work (one thread at a
    /// time, as a `@MainActor` function resumes after an `await` on another thread than it
    /// started on); what is caught is overlapping use. Swift 6's checking already refuses most
    /// such uses at compile time (contexts and objects are not `Sendable`); this catches the
    /// rest (`@unchecked` wrappers, C callbacks). Turning it off saves two atomic operations
    /// per context operation.
    public static var checksThreadConfinement: Bool {
        get { confinementChecks.load(ordering: .relaxed) }
        set { confinementChecks.store(newValue, ordering: .relaxed) }
    }

    /// Enters a context operation; stops the process when another thread is inside one.
    /// Pair with ``exitConfinement()`` (`defer`).
    @inline(__always)
    package func enterConfinement(_ operation: StaticString) {
        if !confinement.enter() && Self.checksThreadConfinement { confinementViolation(operation) }
    }

    /// Leaves a context operation.
    @inline(__always)
    package func exitConfinement() { confinement.exit() }

    /// Stops the process when another thread is inside an operation of the context.
    @inline(__always)
    package func checkConfinement(_ operation: StaticString) {
        if _slowPath(!confinement.isFree) && Self.checksThreadConfinement { confinementViolation(operation) }
    }

    @inline(never)
    private func confinementViolation(_ operation: StaticString) -> Never {
        let label = name.map { "'\($0)'" } ?? "\(ObjectIdentifier(self))"
        fatalError("ManagedObjectContext \(label): \(operation) on one thread while another thread uses the context; "
                   + "use a context from one thread (or actor) at a time and pass object IDs between them")
    }
}
