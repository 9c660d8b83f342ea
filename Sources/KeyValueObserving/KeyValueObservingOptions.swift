/// What a key-value observation reports, and when.
///
/// ```swift
/// let token = try account.observe("balance", options: [.old, .new]) { account, change in
///     print(change.oldValue as Any, "→", change.newValue as Any)
/// }
/// ```
///
/// Corresponds to Apple's `NSKeyValueObservingOptions`.
public struct KeyValueObservingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    /// Creates options from their raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Change records carry the value after the change (``KeyValueChange/newValue``).
    /// For to-many changes: the inserted or replacing elements.
    public static let new = KeyValueObservingOptions(rawValue: 1 << 0)

    /// Change records carry the value before the change (``KeyValueChange/oldValue``).
    /// For to-many changes: the removed or replaced elements.
    public static let old = KeyValueObservingOptions(rawValue: 1 << 1)

    /// One notification is sent during registration, before the registration call returns.
    /// Its kind is ``KeyValueChangeKind/setting``; it carries the current value as the new value
    /// when ``new`` is also given, and never an old value.
    public static let initial = KeyValueObservingOptions(rawValue: 1 << 2)

    /// An extra notification is sent before each change. It has ``KeyValueChange/isPrior`` set,
    /// the old value when ``old`` is given, and never a new value. The usual notification
    /// follows after the change.
    public static let prior = KeyValueObservingOptions(rawValue: 1 << 3)
}
