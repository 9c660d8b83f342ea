/// A token for one observation: the observation lasts until the token is invalidated or released.
///
/// Keep the token as long as you want notifications:
///
/// ```swift
/// var tokens: [KeyValueObservation] = []
/// tokens.append(try person.observe("name") { person, _ in refresh(person) })
/// ```
///
/// Releasing the observed object, the token, or anything the handler captures, in any order,
/// is safe. A handler may invalidate its own token (or others) while it runs.
///
/// Corresponds to Apple's `NSKeyValueObservation`.
///
/// - Important: Thread safety: ``invalidate()`` may be called from any thread, several times.
public final class KeyValueObservation: Sendable {
    let registration: Registration

    init(_ registration: Registration) {
        self.registration = registration
    }

    /// The observed key path.
    public var keyPath: String { registration.keyPath }

    /// Whether the observation still delivers changes.
    public var isValid: Bool { registration.isActive.load(ordering: .acquiring) }

    /// Ends the observation. After it returns, the handler is not called for later changes,
    /// and the observation no longer holds the handler: whatever it captures (often the observed
    /// object itself) is released now, not when the token is. Calling it again does nothing.
    ///
    /// Corresponds to `-[NSKeyValueObservation invalidate]`.
    public func invalidate() {
        registration.invalidate()
    }

    deinit {
        registration.invalidate()
    }
}
