import Foundation
import ObjectGraphInternals
import Synchronization

/// Delivers the changes of one observation on an actor's isolation (see
/// `observe(_:options:isolation:changeHandler:)`).
///
/// A change arriving on the isolation is handed over at once, unless changes wait to be hopped
/// (then it waits behind them, to keep the order). A change arriving elsewhere is queued, and
/// one task at a time drains the queue on the actor.
///
/// `@unchecked Sendable`: `handler` is not Sendable and is called only while the code runs on
/// `isolation` (directly when the change is made there, otherwise from `drain(on:)`, which is
/// isolated to it). Every other stored property is a `let` of Sendable
/// contents or a Mutex.
final class IsolatedDelivery: @unchecked Sendable {
    private let isolation: any Actor
    private let handler: (AnyObject, KeyValueChange) -> Void
    private let state = Mutex(State())
    /// The registration, to drop waiting changes once it is invalidated.
    private let registration = Mutex<WeakRegistration>(WeakRegistration())

    /// The delivery whose handler runs on this task right now (a change made by a running
    /// handler is on the isolation too).
    @TaskLocal private static var delivering: ObjectIdentifier?

    private struct State {
        var waiting: [WaitingChange] = []
        var draining = false
    }

    /// A change waiting to be hopped onto the isolation.
    ///
    /// `@unchecked Sendable`: the object crosses from the changing thread to the isolation, as
    /// the observe methods document (the handler must read it only if that is safe); the
    /// change record is Sendable.
    private struct WaitingChange: @unchecked Sendable {
        var object: AnyObject
        var change: KeyValueChange
    }

    private struct WeakRegistration {
        weak var value: Registration?
    }

    /// Whether the isolation is the main actor, whose jobs run on the main dispatch queue
    /// (on whichever thread drains it: not always the main thread on Linux).
    private let isMainActor: Bool

    init(isolation: any Actor, handler: @escaping (AnyObject, KeyValueChange) -> Void) {
        self.isolation = isolation
        self.handler = handler
        isMainActor = isolation === MainActor.shared
    }

    /// Records the registration whose changes this delivers.
    func attach(to registration: Registration) {
        self.registration.withTrackedLock(self) { $0.value = registration }
    }

    /// Runs `body` (which delivers synchronously) as if on the isolation: used for the initial
    /// notification, made inside the observe call on the caller's isolation.
    func whileDelivering(_ body: () -> Void) {
        Self.$delivering.withValue(ObjectIdentifier(self)) { body() }
    }

    /// Takes one change, on whatever thread made it.
    func receive(_ object: AnyObject, _ change: KeyValueChange) {
        if isOnIsolation(isolation) {
            let direct = state.withTrackedLock(self) { state in
                if state.waiting.isEmpty && !state.draining { return true }
                state.waiting.append(WaitingChange(object: object, change: change))
                return false
            }
            if direct { call(object, change) }
            return
        }
        let schedule = state.withTrackedLock(self) { state in
            state.waiting.append(WaitingChange(object: object, change: change))
            if state.draining { return false }
            state.draining = true
            return true
        }
        if schedule {
            Task { await self.drain(on: isolation) }
        }
    }

    /// Whether this thread runs `isolation` now: for the main actor, whether the code runs as
    /// a job of the main dispatch queue (its executor); for another actor, only while one of
    /// this observation's handlers runs (Swift offers no public way to ask whether a thread
    /// runs a given actor).
    private func isOnIsolation(_ isolation: any Actor) -> Bool {
        if Self.delivering == ObjectIdentifier(self) { return true }
        return isMainActor && MainQueueCheck.isRunningOnMainQueue()
    }

    private func call(_ object: AnyObject, _ change: KeyValueChange) {
        Self.$delivering.withValue(ObjectIdentifier(self)) { handler(object, change) }
    }

    /// Hands the waiting changes over, in order, on `isolation`.
    private func drain(on isolation: isolated any Actor) {
        while true {
            let next = state.withTrackedLock(self) { state -> WaitingChange? in
                if state.waiting.isEmpty {
                    state.draining = false
                    return nil
                }
                return state.waiting.removeFirst()
            }
            guard let next else { return }
            let active = registration.withTrackedLock(self) { $0.value?.isActive.load(ordering: .acquiring) ?? false }
            if active { call(next.object, next.change) }
        }
    }
}

/// Tells whether the current code runs on the main dispatch queue, which executes the main
/// actor's jobs: a value set on the queue is visible to every block it runs, on whatever thread
/// drains it (the main thread is not always the one on Linux).
enum MainQueueCheck {
    private static let key = DispatchSpecificKey<UInt8>()
    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return true
    }()

    static func isRunningOnMainQueue() -> Bool {
        guard marked else { return false }
        return DispatchQueue.getSpecific(key: key) == 1
    }
}
