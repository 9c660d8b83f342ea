import Foundation
import KeyValueCoding

extension KeyValueObservable {
    /// Observes `keyPath` of this object and calls `changeHandler` on the caller's isolation.
    ///
    /// This is the form Swift picks for a closure written in code isolated to an actor: a
    /// `@MainActor` view or view model, or an actor. The handler is not `@Sendable`: it runs
    /// on that isolation, so it may use the caller's state directly, with no `[weak self]`
    /// dance, `MainActor.assumeIsolated` or `@unchecked`:
    ///
    /// ```swift
    /// @MainActor final class CartView {
    ///     var label = ""
    ///     var token: KeyValueObservation?
    ///     func bind(to cart: Cart) throws {
    ///         token = try cart.observe("total") { _, change in self.label = "\(change.newValue ?? 0)" }
    ///     }
    /// }
    /// ```
    ///
    /// When the handler runs:
    /// - A change made on the isolation itself (on the main actor, any code running on the
    ///   main thread) is delivered at once, inside the change, as Apple's key-value observing
    ///   does; so is the `.initial` notification, inside this call, and a change made by a
    ///   handler while it runs.
    /// - A change made on another thread is hopped onto the isolation: the handler runs later,
    ///   in a task on the actor, with the change record as it was when the change was made
    ///   (read the object itself only if it is safe to read from the actor). `.prior`
    ///   notifications are hopped the same way.
    /// - For an actor other than the main actor, every change made outside a handler is hopped
    ///   (Swift offers no way to ask whether the current thread runs a given actor).
    /// - Changes reach the handler in the order they were made: once one change waits to be
    ///   hopped, the changes after it wait behind it, even those made on the isolation.
    /// - After ``KeyValueObservation/invalidate()`` returns, no waiting change is delivered.
    ///
    /// In code that is not isolated to an actor (`isolation` is `nil`) the handler runs on the
    /// thread that makes each change, like the `@Sendable` form. Swift does not check such a
    /// handler for sendability: write `{ @Sendable object, change in ... }` to have it
    /// checked, and make any state it shares with other threads thread-safe.
    ///
    /// - Parameters:
    ///   - keyPath: A key path of this object, without collection operators.
    ///   - options: What the change records carry, and whether to send initial and prior
    ///     notifications.
    ///   - isolation: The actor the handler runs on; the caller's isolation by default.
    ///   - changeHandler: Called with this object and each change, on `isolation`.
    /// - Returns: A token; the observation ends when it is invalidated or released.
    /// - Throws: The errors of the `@Sendable` form of this method.
    /// - Complexity: That of the `@Sendable` form; a hopped change costs one task hop more.
    ///
    /// Corresponds to Apple's `NSObject.observe(_:options:changeHandler:)`, whose handler runs
    /// on the thread that makes the change.
    public func observe(_ keyPath: String, options: KeyValueObservingOptions = [],
                        isolation: isolated (any Actor)? = #isolation,
                        changeHandler: @escaping (Self, KeyValueChange) -> Void)
        throws -> KeyValueObservation {
        try register(keyPath, options: options, isolation: isolation) { object, change in
            changeHandler(unsafeDowncast(object, to: Self.self), change)
        }
    }

    /// Observes a property given as a Swift key path, calling `changeHandler` on the caller's
    /// isolation with typed old and new values.
    ///
    /// See the string form of this method for when the handler runs.
    ///
    /// ```swift
    /// token = try cart.observe(\.total, options: [.new]) { _, change in
    ///     self.label = "\(change.newValue ?? 0)"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The property to observe.
    ///   - options: What the change records carry.
    ///   - isolation: The actor the handler runs on; the caller's isolation by default.
    ///   - changeHandler: Called with this object and each change, on `isolation`.
    /// - Returns: A token; the observation ends when it is invalidated or released.
    /// - Throws: ``KeyValueObservingError/unsupportedKeyPath(_:)`` when the key path has no
    ///   key-value coding name, and the errors of the string form.
    ///
    /// Corresponds to Apple's `NSObject.observe(_:options:changeHandler:)` with a key path.
    public func observe<Value>(_ keyPath: KeyPath<Self, Value>, options: KeyValueObservingOptions = [],
                               isolation: isolated (any Actor)? = #isolation,
                               changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void)
        throws -> KeyValueObservation {
        let name = try KeyPathProbe.keyPathString(for: keyPath, on: self)
        return try register(name, options: options, isolation: isolation) { object, change in
            changeHandler(unsafeDowncast(object, to: Self.self), KeyValueObservedChange(change))
        }
    }

    /// Registers a closure observation whose handler runs on `isolation` (on the changing
    /// thread when it is nil).
    private func register(_ keyPath: String, options: KeyValueObservingOptions,
                          isolation: (any Actor)?,
                          handler: @escaping (AnyObject, KeyValueChange) -> Void) throws -> KeyValueObservation {
        guard let isolation else {
            // Called on the changing thread, as documented for a nil isolation: the same
            // function, seen as @Sendable (the two function types share one representation),
            // so that delivery costs no extra call or allocation.
            let direct = unsafeBitCast(handler, to: (@Sendable (AnyObject, KeyValueChange) -> Void).self)
            return try register(keyPath, options: options, deliver: direct)
        }
        let delivery = IsolatedDelivery(isolation: isolation, handler: handler)
        return try register(keyPath, options: options, deliver: { delivery.receive($0, $1) },
                            initial: { registration in
            delivery.whileDelivering { registration.sendInitial(to: self) }
        }, created: delivery.attach(to:))
    }
}
