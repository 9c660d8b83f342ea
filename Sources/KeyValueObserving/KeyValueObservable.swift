import Foundation
import KeyValueCoding

/// A key-value coding class whose changes can be observed by key path.
///
/// Conform a class and mark the properties that should notify on every plain assignment with
/// ``Observed``:
///
/// ```swift
/// final class Person: KeyValueObservable {
///     @Observed var name = ""
///     @Observed var age = 0
///     var nickname = ""           // not observable: an assignment could not notify
/// }
///
/// let token = try person.observe("name", options: [.old, .new]) { person, change in
///     print(change.oldValue as Any, change.newValue as Any)
/// }
/// person.name = "Ada"             // the handler runs here, on this thread
/// ```
///
/// Changes made through `setValue(_:forKey:)`, through the mutable collection proxies of key-value
/// coding, and between ``KeyValueCodable/willChangeValue(forKey:)`` and
/// ``KeyValueCodable/didChangeValue(forKey:)`` notify too. Conforming to this protocol replaces key-value
/// coding's no-op change hooks with ones that notify.
///
/// Override ``KeyValueCodable/automaticallyNotifiesObservers(forKey:)`` to send notifications
/// for a key yourself, and ``keyPathsForValuesAffectingValue(forKey:)`` to declare the keys a
/// computed key depends on. In a class hierarchy, a subclass's own version of these is used
/// only when the conforming class declares them too: derive non-final classes from
/// ``KeyValueObject``, which declares them `open` for subclasses to `override`.
///
/// A handler written in code isolated to an actor runs on that actor (see
/// ``observe(_:options:isolation:changeHandler:)``).
///
/// Corresponds to Apple's `NSKeyValueObserving` informal protocol on `NSObject`.
///
/// - Important: Thread safety: registering, removing and notifying are thread-safe.
///   Notifications are delivered on the thread that makes the change (or hopped onto the
///   observing actor for handlers registered from one).
public protocol KeyValueObservable: KeyValueCodable, SendableMetatype {
    /// The key paths whose values affect the value of `key`.
    ///
    /// Observers of `key` are notified whenever one of these key paths changes. Key paths are
    /// relative to the object and may have several links (`"department.name"`). Dependencies
    /// can be transitive; cycles are cut and a change reaching a key by several ways is reported
    /// once. The default is empty.
    ///
    /// ```swift
    /// class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
    ///     key == "fullName" ? ["firstName", "lastName"] : []
    /// }
    /// ```
    ///
    /// - Parameter key: A key of the class.
    /// - Returns: The key paths that affect it.
    ///
    /// Corresponds to `+[NSObject keyPathsForValuesAffectingValueForKey:]`.
    static func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String>

    /// Called by `@Observed` properties when they are read. A no-op unless the class conforms
    /// to ``KeyValueObservationTracking``; you do not call or implement it.
    func observationTrackingAccess<Root, Member>(_ keyPath: KeyPath<Root, Member>)
    /// Called by `@Observed` properties before a store. See ``observationTrackingAccess(_:)``.
    func observationTrackingWillSet<Root, Member>(_ keyPath: KeyPath<Root, Member>)
    /// Called by `@Observed` properties after a store. See ``observationTrackingAccess(_:)``.
    func observationTrackingDidSet<Root, Member>(_ keyPath: KeyPath<Root, Member>)

    /// The object's own observation state, or `nil` (the default) to keep it in a
    /// process-wide table. Return a ``KeyValueObservationStorage`` made once per object (a stored
    /// `let`) for objects whose values are not `@Observed` properties: notifications then take
    /// no process-wide lock. Must not change during the object's life.
    var keyValueObservationStorage: KeyValueObservationStorage? { get }
}

extension KeyValueObservable {
    public static func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> { [] }

    @inlinable @inline(__always)
    public func observationTrackingAccess<Root, Member>(_ keyPath: KeyPath<Root, Member>) {}
    @inlinable @inline(__always)
    public func observationTrackingWillSet<Root, Member>(_ keyPath: KeyPath<Root, Member>) {}
    @inlinable @inline(__always)
    public func observationTrackingDidSet<Root, Member>(_ keyPath: KeyPath<Root, Member>) {}

    // MARK: Change notification

    /// The object keeps no observation state of its own by default (it lives in a
    /// process-wide table).
    @inlinable @inline(__always)
    public var keyValueObservationStorage: KeyValueObservationStorage? { nil }

    /// Delivers a change notification to the object's hooks, change sink and observers.
    /// You do not call it: call ``KeyValueCodable/willChangeValue(forKey:)`` and its relatives.
    @inlinable @inline(__always)
    public func deliverKeyValueChange(_ event: KeyValueChangeEvent) {
        ObservationCenter.deliver(event, from: self)
    }
}
