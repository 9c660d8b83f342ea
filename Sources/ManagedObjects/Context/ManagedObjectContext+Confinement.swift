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
@usableFromInline
package final class ConfinementGuard {
    /// Which threads may start using the context.
    @usableFromInline
    package enum Admission: Sendable {
        /// Any thread, one at a time (a context made with `init(coordinator:)` or `init(model:)`).
        case anyThread
        /// The main thread, or a thread inside a `perform` (a main-queue context).
        case mainThread
        /// Only a thread inside a `perform` (a private-queue context).
        case performOnly
    }

    /// The thread inside an operation (its `pthread_self`), or 0.
    @usableFromInline package let occupant = Atomic<UInt>(0)
    /// How deeply the occupant has entered (operations call each other); touched by the
    /// occupant only.
    private var depth = 0
    /// Which threads may start using the context.
    @usableFromInline package let admission: Admission

    package init(admission: Admission = .anyThread) { self.admission = admission }

    @inlinable @inline(__always)
    package static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// Whether a change that needs no recording (a quiet store, see
    /// ``ManagedObject/quietSlots``) may happen on the calling thread without entering: it is
    /// inside an operation already, or nobody is and any thread may use the context. `false`
    /// sends the change the full way, which checks (and stops a process that misuses the
    /// context). One atomic load; unlike an operation, a quiet store does not occupy the
    /// context, so a thread that starts an operation during one is not stopped.
    @inlinable @inline(__always)
    package var admitsQuietChange: Bool {
        let current = occupant.load(ordering: .acquiring)
        if current == 0 { return admission == .anyThread }
        return current == Self.currentThread
    }

    /// Enters an operation; `false` when another thread is inside one.
    @inline(__always)
    package func enter() -> Bool {
        let me = Self.currentThread
        if occupant.load(ordering: .acquiring) == me {
            depth += 1
            return true
        }
        if _slowPath(admission != .anyThread) {
            guard admission == .mainThread && MainQueueCheck.isRunningOnMainQueue() else { return false }
        }
        guard occupant.compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing).exchanged else { return false }
        depth = 1
        return true
    }

    /// Enters a `perform` block on the context's own queue: admitted whatever the admission;
    /// `false` when another thread is inside an operation.
    package func enterFromQueue() -> Bool {
        let me = Self.currentThread
        if occupant.load(ordering: .acquiring) == me {
            depth += 1
            return true
        }
        guard occupant.compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing).exchanged else { return false }
        depth = 1
        return true
    }

    /// Whether the calling thread is inside an operation (or a `perform` block) of the context.
    package var isHeldByCurrentThread: Bool {
        occupant.load(ordering: .acquiring) == Self.currentThread
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
        if current == Self.currentThread { return true }
        switch admission {
        case .anyThread: return current == 0
        case .mainThread: return current == 0 && MainQueueCheck.isRunningOnMainQueue()
        case .performOnly: return false
        }
    }
}

extension ManagedObjectContext {
    private static let confinementChecks = Atomic<Bool>(true)

    /// Whether contexts stop the process with a message naming the context and the operation
    /// when two threads use a context (or its objects) at the same time, or a queue context is
    /// used off its queue (default `true`), in the manner of Apple's concurrency debugging flag
    /// (`-com.apple.CoreData.ConcurrencyDebug 1`).
    ///
    /// A private-queue context may be used only inside its ``perform(_:)`` and
    /// ``performAndWait(_:)`` blocks; a main-queue context on the main thread (the main actor)
    /// or inside its blocks. Set it to `false` in release builds to skip the checks.
    ///
    /// A context may move between threads as Swift 6 moves an actor's work (one thread at a
    /// time, as a `@MainActor` function resumes after an `await` on another thread than it
    /// started on); what is caught is overlapping use. Swift 6's checking refuses contexts and
    /// objects crossing queues through `perform` blocks (they are not `Sendable`); it does not
    /// see a private-queue context used directly by the code that made it, nor `@unchecked`
    /// wrappers and C callbacks: this check catches those. Turning it off saves two atomic operations
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

    /// Whether the calling thread may use the context now (what the checks decide).
    package var isUsableOnCurrentThread: Bool { confinement.isFree }

    @inline(never)
    private func confinementViolation(_ operation: StaticString) -> Never {
        fatalError(confinementViolationMessage("\(operation)"))
    }

    /// The message a check stops the process with: it names the context and, for a queue
    /// context, its queue.
    package func confinementViolationMessage(_ operation: String) -> String {
        let label = name.map { "'\($0)'" } ?? "\(ObjectIdentifier(self))"
        switch confinement.admission {
        case .anyThread:
            return "ManagedObjectContext \(label): \(operation) on one thread while another thread uses the context; "
                + "use a context from one thread (or actor) at a time and pass object IDs between them"
        case .mainThread, .performOnly:
            return "ManagedObjectContext \(label): \(operation) off the context's queue (\(queueDescription)); "
                + "use the context and its objects inside perform { } or performAndWait { }, and pass object IDs between queues"
        }
    }
}
