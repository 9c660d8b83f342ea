/// An object that receives key-value observing notifications in one method, for code ported
/// from Apple's `addObserver(_:forKeyPath:options:context:)`.
///
/// ```swift
/// final class Inspector: KeyValueObserver {
///     func observeValue(forKeyPath keyPath: String, of object: AnyObject,
///                       change: KeyValueChange, context: UnsafeMutableRawPointer?) {
///         ...
///     }
/// }
/// try person.addObserver(inspector, forKeyPath: "name", options: [.new])
/// ```
///
/// The observed object does not keep the observer alive; a released observer is no longer
/// called. Notifications arrive on the thread that makes the change.
///
/// Corresponds to `-[NSObject observeValueForKeyPath:ofObject:change:context:]`.
/// The protocol cannot be conformed to with an actor isolation (`@MainActor KeyValueObserver`):
/// notifications arrive on the thread that makes each change, so an isolated method could run off
/// its actor. A main-actor view observes with a closure (`observe(_:options:changeHandler:)`
/// delivers on the caller's isolation) or declares `observeValue` `nonisolated` and hops itself.
public protocol KeyValueObserver: AnyObject, SendableMetatype {
    /// Called for each change of an observed key path.
    ///
    /// - Parameters:
    ///   - keyPath: The key path, as registered.
    ///   - object: The object the key path was registered on.
    ///   - change: What changed.
    ///   - context: The context given at registration.
    func observeValue(forKeyPath keyPath: String, of object: AnyObject, change: KeyValueChange,
                      context: UnsafeMutableRawPointer?)
}

/// A weak reference to an observer, captured by a registration's delivery closure.
final class WeakObserver: @unchecked Sendable {
    // @unchecked: the weak reference is only loaded (loads of weak references are atomic in
    // the runtime). Calling the observer from the changing thread is the documented contract of
    // `KeyValueObserver`, as of Apple's key-value observing.
    weak let observer: (any KeyValueObserver)?

    init(_ observer: any KeyValueObserver) { self.observer = observer }
}
